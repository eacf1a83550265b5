package metrics

import (
	"errors"
	"fmt"
	"io"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

func values(t *testing.T, m *Metrics) map[string]float64 {
	t.Helper()
	v, err := m.Values()
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// pick returns the entries of got whose series name starts with prefix.
func pick(got map[string]float64, prefix string) map[string]float64 {
	out := make(map[string]float64)
	for k, v := range got {
		if strings.HasPrefix(k, prefix) {
			out[k] = v
		}
	}
	return out
}

func TestObserveRequest(t *testing.T) {
	m := New()
	m.ObserveRequest("resources/read", OutcomeOK, time.Millisecond)
	m.ObserveRequest("resources/read", OutcomeOK, time.Millisecond)
	m.ObserveRequest("resources/read", OutcomeResourceNotFound, time.Millisecond)
	m.ObserveRequest("evil/\"method\"\n", OutcomeMethodNotFound, time.Millisecond)
	got := values(t, m)
	want := map[string]float64{
		`grove_requests_total{method="resources/read",outcome="ok"}`:                 2,
		`grove_requests_total{method="resources/read",outcome="resource_not_found"}`: 1,
		`grove_requests_total{method="other",outcome="method_not_found"}`:            1,
	}
	if diff := cmp.Diff(want, pick(got, "grove_requests_total")); diff != "" {
		t.Errorf("requests mismatch (-want +got):\n%s", diff)
	}
	wantLatency := map[string]float64{
		`grove_request_duration_seconds{method="resources/read"}`: 3,
		`grove_request_duration_seconds{method="other"}`:          1,
	}
	if diff := cmp.Diff(wantLatency, pick(got, "grove_request_duration_seconds")); diff != "" {
		t.Errorf("latency mismatch (-want +got):\n%s", diff)
	}
}

func TestToolLabels(t *testing.T) {
	for _, tt := range []struct {
		name  string
		tool  string
		known bool
		want  string
	}{
		{"known", "git_status", true, "git_status"},
		{"unknown to the server", "git_status", false, "other"},
		{"not a tool name", "a b", true, "other"},
		{"empty", "", true, "other"},
		{"too long", strings.Repeat("x", 129), true, "other"},
		{"the other bucket's name", "other", true, "other"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			m := New()
			m.ObserveTool(tt.tool, tt.known, OutcomeOK, time.Millisecond)
			want := map[string]float64{fmt.Sprintf(`grove_tool_calls_total{outcome="ok",tool=%q}`, tt.want): 1}
			if diff := cmp.Diff(want, pick(values(t, m), "grove_tool_calls_total")); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCardinalityBounded(t *testing.T) {
	m := New()
	for i := range 1000 {
		name := fmt.Sprintf("tool_%d", i)
		m.ObserveTool(name, true, OutcomeOK, time.Millisecond)
		m.ObserveRequest("x/"+name, OutcomeOK, time.Millisecond)
		m.NotificationSent("notifications/" + name)
		m.NotificationDropped("notifications/"+name, DropReason(name))
	}
	got := values(t, m)
	for prefix, max := range map[string]int{
		"grove_tool_calls_total":            MaxTools + 1,
		"grove_tool_duration_seconds":       MaxTools + 1,
		"grove_requests_total":              1,
		"grove_notifications_sent_total":    1,
		"grove_notifications_dropped_total": 1,
	} {
		if n := len(pick(got, prefix)); n > max {
			t.Errorf("%s has %d series, want at most %d", prefix, n, max)
		}
	}
	if got[`grove_tool_calls_total{outcome="ok",tool="other"}`] != 1000-MaxTools {
		t.Errorf("other tools = %v, want %d", got[`grove_tool_calls_total{outcome="ok",tool="other"}`], 1000-MaxTools)
	}
}

func TestNotifications(t *testing.T) {
	m := New()
	m.NotificationSent("notifications/resources/updated")
	m.NotificationSent("notifications/resources/updated")
	m.NotificationDropped("notifications/resources/list_changed", DropSendFailed)
	m.NotificationDropped("notifications/resources/updated", DropEvicted)
	got := values(t, m)
	want := map[string]float64{
		`grove_notifications_sent_total{method="notifications/resources/updated"}`:                              2,
		`grove_notifications_dropped_total{method="notifications/resources/list_changed",reason="send_failed"}`: 1,
		`grove_notifications_dropped_total{method="notifications/resources/updated",reason="evicted"}`:          1,
	}
	if diff := cmp.Diff(want, pick(got, "grove_notifications_")); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

func TestErrorOutcome(t *testing.T) {
	for _, tt := range []struct {
		err  error
		want Outcome
	}{
		{errors.New("plain"), OutcomeError},
		{&jsonrpc.Error{Code: jsonrpc.CodeInvalidParams}, OutcomeInvalidParams},
		{fmt.Errorf("wrapped: %w", &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound}), OutcomeMethodNotFound},
		{&jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest}, OutcomeInvalidRequest},
		{&jsonrpc.Error{Code: jsonrpc.CodeInternalError}, OutcomeInternalError},
		{&jsonrpc.Error{Code: -32002}, OutcomeResourceNotFound},
		{&jsonrpc.Error{Code: -32022}, OutcomeProtocolError},
		{&jsonrpc.Error{Code: -32000}, OutcomeError},
		{&jsonrpc.Error{Code: 42}, OutcomeError},
	} {
		if got := ErrorOutcome(tt.err); got != tt.want {
			t.Errorf("ErrorOutcome(%v) = %q, want %q", tt.err, got, tt.want)
		}
	}
}

func TestGaugesSumSources(t *testing.T) {
	m := New()
	m.AddGauges(Gauges{Sessions: func() int { return 1 }, WatchedDirs: func() int { return 7 }, OpenRepos: func() int { return 2 },
		GrepIndex: func() (int64, int64) { return 300, 1000 }})
	remove := m.AddGauges(Gauges{Sessions: func() int { return 3 }, Subscriptions: func() int { return 4 }, WatchDegraded: func() bool { return true }})
	want := map[string]float64{
		"grove_sessions": 4, "grove_subscriptions": 4, "grove_watched_directories": 7,
		"grove_watch_degraded": 1, "grove_repositories_open": 2,
		"grove_grep_index_bytes": 300, "grove_grep_index_text_bytes": 1000,
	}
	got := values(t, m)
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %v, want %v", k, got[k], v)
		}
	}
	remove()
	got = values(t, m)
	if got["grove_sessions"] != 1 || got["grove_watch_degraded"] != 0 {
		t.Errorf("after remove: sessions %v, degraded %v; want 1, 0", got["grove_sessions"], got["grove_watch_degraded"])
	}
}

func TestNilMetrics(t *testing.T) {
	var m *Metrics
	m.ObserveRequest("tools/call", OutcomeOK, time.Second)
	m.ObserveTool("git_status", true, OutcomeOK, time.Second)
	m.NotificationSent("notifications/resources/updated")
	m.NotificationDropped("notifications/resources/updated", DropSendFailed)
	m.AddGauges(Gauges{})()
	if v, err := m.Values(); v != nil || err != nil {
		t.Errorf("Values() = %v, %v; want nil, nil", v, err)
	}
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	if rec.Code != 404 {
		t.Errorf("nil handler answered %d, want 404", rec.Code)
	}
}

func TestHandlerExposition(t *testing.T) {
	m := New()
	m.ObserveTool("git_status", true, OutcomeOK, 3*time.Millisecond)
	m.AddGauges(Gauges{Sessions: func() int { return 1 }})
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	body, _ := io.ReadAll(rec.Body)
	for _, want := range []string{
		`grove_tool_calls_total{outcome="ok",tool="git_status"} 1`,
		`grove_tool_duration_seconds_bucket{tool="git_status",le="0.005"} 1`,
		"grove_sessions 1",
		"# TYPE grove_tool_duration_seconds histogram",
		"go_goroutines ",
		"process_resident_memory_bytes ",
	} {
		if !strings.Contains(string(body), want) {
			t.Errorf("exposition lacks %q", want)
		}
	}
}
