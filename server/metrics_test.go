package server

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/grove-mcp/grove/internal/servertest"
	"github.com/grove-mcp/grove/metrics"
	"github.com/grove-mcp/grove/roots"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// waitValue waits until the series has at least want, as a scrape would
// show it: counters are incremented just after the message is written.
func waitValue(t *testing.T, m *metrics.Metrics, series string, want float64) {
	t.Helper()
	deadline := time.Now().Add(servertest.WaitLimit)
	for {
		got, err := m.Values()
		if err != nil {
			t.Fatal(err)
		}
		if got[series] >= want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s = %v after %v, want at least %v", series, got[series], servertest.WaitLimit, want)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func selected(got map[string]float64, keys ...string) map[string]float64 {
	out := make(map[string]float64)
	for _, k := range keys {
		out[k] = got[k]
	}
	return out
}

func TestMetricsRequests(t *testing.T) {
	for _, era := range servertest.Eras {
		t.Run(era, func(t *testing.T) {
			base := servertest.RealTemp(t)
			servertest.Write(t, filepath.Join(base, "a.txt"), "hello")
			servertest.CommitAll(t, base)
			m := metrics.New()
			cs, _, _ := connect(t, Config{Roots: []string{base}, Metrics: m}, era)
			ctx := context.Background()
			if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: roots.URI(filepath.Join(base, "a.txt"))}); err != nil {
				t.Fatal(err)
			}
			if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: roots.URI(filepath.Join(base, "missing.txt"))}); err == nil {
				t.Fatal("read a missing file")
			}
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "git_status", Arguments: map[string]any{"repo_path": base}})
			if err != nil || res.IsError {
				t.Fatalf("git_status: %v %+v", err, res)
			}
			if res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "git_log", Arguments: map[string]any{"repo_path": "~"}}); err != nil || !res.IsError {
				t.Fatalf("git_log of ~: %v %+v, want an isError result", err, res)
			}
			for _, name := range []string{"no_such_tool", "evil\ntool\"{}"} {
				if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name}); err == nil {
					t.Fatalf("called %q", name)
				}
			}
			notFound := "resource_not_found"
			if era == servertest.Modern {
				notFound = "invalid_params"
			}
			want := map[string]float64{
				`grove_requests_total{method="resources/read",outcome="ok"}`:               1,
				`grove_requests_total{method="resources/read",outcome="` + notFound + `"}`: 1,
				`grove_requests_total{method="tools/call",outcome="ok"}`:                   1,
				`grove_requests_total{method="tools/call",outcome="tool_error"}`:           1,
				`grove_requests_total{method="tools/call",outcome="invalid_params"}`:       2,
				`grove_tool_calls_total{outcome="ok",tool="git_status"}`:                   1,
				`grove_tool_calls_total{outcome="tool_error",tool="git_log"}`:              1,
				`grove_tool_calls_total{outcome="invalid_params",tool="other"}`:            2,
				`grove_request_duration_seconds{method="resources/read"}`:                  2,
				`grove_tool_duration_seconds{tool="git_status"}`:                           1,
				`grove_sessions`:          1,
				`grove_repositories_open`: 1,
			}
			if era == servertest.Modern { // each scoped request first asks for the client's roots (MRTR), then runs
				want[`grove_requests_total{method="resources/read",outcome="input_required"}`] = 2
				want[`grove_requests_total{method="tools/call",outcome="input_required"}`] = 2
				want[`grove_tool_calls_total{outcome="input_required",tool="git_status"}`] = 1
				want[`grove_request_duration_seconds{method="resources/read"}`] = 4
				want[`grove_tool_duration_seconds{tool="git_status"}`] = 2
			}
			got, err := m.Values()
			if err != nil {
				t.Fatal(err)
			}
			keys := make([]string, 0, len(want))
			for k := range want {
				keys = append(keys, k)
			}
			if diff := cmp.Diff(want, selected(got, keys...)); diff != "" {
				t.Errorf("series mismatch (-want +got):\n%s", diff)
			}
			for k := range got {
				if strings.Contains(k, "no_such_tool") || strings.Contains(k, "evil") {
					t.Errorf("a client's tool name became a label: %s", k)
				}
			}
		})
	}
}

func TestMetricsNotifications(t *testing.T) {
	base := servertest.RealTemp(t)
	file := filepath.Join(base, "a.txt")
	servertest.Write(t, file, "0")
	m := metrics.New()
	cs, _, ev, _ := connectWatching(t, Config{Roots: []string{base}, Metrics: m}, servertest.Legacy)
	if err := cs.Subscribe(context.Background(), &mcp.SubscribeParams{URI: roots.URI(file)}); err != nil {
		t.Fatal(err)
	}
	got, err := m.Values()
	if err != nil {
		t.Fatal(err)
	}
	if got["grove_subscriptions"] != 1 || got["grove_watched_directories"] < 1 {
		t.Errorf("subscriptions %v, watched directories %v; want 1, at least 1", got["grove_subscriptions"], got["grove_watched_directories"])
	}
	servertest.Write(t, file, "1")
	servertest.ExpectUpdated(t, ev, roots.URI(file))
	waitValue(t, m, `grove_notifications_sent_total{method="notifications/resources/updated"}`, 1)
}

// A server without metrics adds no middleware: the chain is the one it
// had before metrics existed.
func TestNoMetricsNoMiddleware(t *testing.T) {
	base := servertest.RealTemp(t)
	s, err := New(Config{Roots: []string{base}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.cfg.Metrics != nil {
		t.Fatal("metrics without asking")
	}
	before := len(s.closer)
	s.instrument()
	if len(s.closer) != before {
		t.Error("instrument without metrics registered something")
	}
}

func TestCountNotifications(t *testing.T) {
	m := metrics.New()
	send := countNotifications(m)(func(_ context.Context, method string, _ mcp.Request) (mcp.Result, error) {
		if method == "notifications/resources/list_changed" {
			return nil, errors.New("session is closed")
		}
		return nil, nil
	})
	for _, method := range []string{"notifications/resources/updated", "notifications/resources/updated",
		"notifications/resources/list_changed", "roots/list", "notifications/made_up"} {
		send(context.Background(), method, nil)
	}
	want := map[string]float64{
		`grove_notifications_sent_total{method="notifications/resources/updated"}`:                              2,
		`grove_notifications_sent_total{method="other"}`:                                                        1,
		`grove_notifications_dropped_total{method="notifications/resources/list_changed",reason="send_failed"}`: 1,
	}
	got, err := m.Values()
	if err != nil {
		t.Fatal(err)
	}
	for k := range got {
		if !strings.HasPrefix(k, "grove_notifications_") {
			delete(got, k)
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

func TestOutcomeOf(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tt := range []struct {
		name string
		ctx  context.Context
		res  mcp.Result
		err  error
		want metrics.Outcome
	}{
		{"ok", context.Background(), &mcp.ReadResourceResult{}, nil, metrics.OutcomeOK},
		{"tool error", context.Background(), &mcp.CallToolResult{IsError: true}, nil, metrics.OutcomeToolError},
		{"cancelled", cancelled, &mcp.CallToolResult{IsError: true}, nil, metrics.OutcomeCancelled},
		{"rpc error", context.Background(), nil, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound}, metrics.OutcomeMethodNotFound},
		{"nil tool result", context.Background(), (*mcp.CallToolResult)(nil), nil, metrics.OutcomeOK},
		{"nil read result", context.Background(), (*mcp.ReadResourceResult)(nil), nil, metrics.OutcomeOK},
		{"nil prompt result", context.Background(), (*mcp.GetPromptResult)(nil), nil, metrics.OutcomeOK},
		{"no result", context.Background(), nil, nil, metrics.OutcomeOK},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := outcomeOf(tt.ctx, tt.res, tt.err); got != tt.want {
				t.Errorf("outcomeOf = %q, want %q", got, tt.want)
			}
		})
	}
}
