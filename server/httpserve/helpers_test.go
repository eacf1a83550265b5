package httpserve

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/grove-mcp/grove/internal/servertest"
	"github.com/grove-mcp/grove/metrics"
	"github.com/grove-mcp/grove/server"
)

// The helpers below are the transport tests' share of package server's test
// helpers: a test package cannot import another's.

func listRoots(t *testing.T, cs *mcp.ClientSession) server.ListRootsOut {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "list_roots"})
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError {
		t.Fatalf("list_roots failed: %v", res.Content)
	}
	var out server.ListRootsOut
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func paths(out server.ListRootsOut) []string {
	var ps []string
	for _, r := range out.Roots {
		ps = append(ps, r.Path)
	}
	slices.Sort(ps)
	return ps
}

// waitSubscriptions waits until the server holds n subscriptions, as its
// grove_subscriptions gauge says: a modern client's Subscribe and
// Unsubscribe return before the server has processed them.
func waitSubscriptions(t *testing.T, m *metrics.Metrics, n int) {
	t.Helper()
	deadline := time.Now().Add(servertest.WaitLimit)
	for {
		got := gauge(t, m, "grove_subscriptions")
		if got == n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d subscriptions after %v, want %d", got, servertest.WaitLimit, n)
		}
		time.Sleep(time.Millisecond)
	}
}

// gauge reads one unlabelled gauge from m's exposition.
func gauge(t *testing.T, m *metrics.Metrics, name string) int {
	t.Helper()
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	sc := bufio.NewScanner(rec.Body)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), name+" "); ok {
			n, err := strconv.ParseFloat(v, 64)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			return int(n)
		}
	}
	t.Fatalf("no gauge %s", name)
	return 0
}
