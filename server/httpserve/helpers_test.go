package httpserve

import (
	"bufio"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/grove-mcp/grove/internal/servertest"
	"github.com/grove-mcp/grove/metrics"
)

// Helpers shared with package server's tests are in internal/servertest.

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
