package metrics_test

import (
	"fmt"
	"time"

	"github.com/grove-mcp/grove/metrics"
)

func Example() {
	m := metrics.New()
	m.ObserveTool("git_status", true, metrics.OutcomeOK, 2*time.Millisecond)
	m.ObserveTool("made_up_by_a_client", false, metrics.OutcomeInvalidParams, time.Millisecond)
	v, _ := m.Values()
	fmt.Println(v[`grove_tool_calls_total{outcome="ok",tool="git_status"}`])
	fmt.Println(v[`grove_tool_calls_total{outcome="invalid_params",tool="other"}`])
	// Output:
	// 1
	// 1
}
