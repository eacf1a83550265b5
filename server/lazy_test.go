package server

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// answered is a method handler that answers every call.
func answered(context.Context, string, mcp.Request) (mcp.Result, error) {
	return &mcp.ListToolsResult{}, nil
}

// tools/list and tools/call wait for the registration; the handshake and
// everything else do not.
func TestLazyToolsWait(t *testing.T) {
	var l lazyTools
	release := make(chan struct{})
	l.start(func() { <-release }, slog.New(slog.DiscardHandler))
	defer l.close()
	defer close(release)
	h := l.wait(answered)
	gone, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tt := range []struct {
		method string
		held   bool
	}{
		{"tools/list", true},
		{"tools/call", true},
		{"initialize", false},
		{"server/discover", false},
		{"resources/list", false},
		{"prompts/list", false},
	} {
		t.Run(tt.method, func(t *testing.T) {
			// With the context already done, a held call ends with its error.
			_, err := h(gone, tt.method, nil)
			if held := errors.Is(err, context.Canceled); held != tt.held {
				t.Errorf("held = %v (err %v), want %v", held, err, tt.held)
			}
		})
	}
}

func TestLazyToolsPanic(t *testing.T) {
	var l lazyTools
	l.start(func() { panic("a tool without a schema") }, slog.New(slog.DiscardHandler))
	l.close()
	_, err := l.wait(answered)(context.Background(), "tools/list", nil)
	if err == nil || !strings.Contains(err.Error(), "internal error") {
		t.Errorf("tools/list after a failed registration: err %v, want an internal error", err)
	}
}

// The SDK's announcement of the start-up registration is dropped; a change
// after it is not.
func TestLazyToolsQuiet(t *testing.T) {
	var l lazyTools
	release := make(chan struct{})
	l.start(func() { <-release }, slog.New(slog.DiscardHandler))
	sent := 0
	h := l.quiet(func(context.Context, string, mcp.Request) (mcp.Result, error) {
		sent++
		return nil, nil
	})
	send := func(method string) {
		if _, err := h(context.Background(), method, nil); err != nil {
			t.Fatal(err)
		}
	}
	send("notifications/tools/list_changed") // while registering
	close(release)
	l.close()
	send("notifications/tools/list_changed") // just after
	send("notifications/resources/list_changed")
	if sent != 1 {
		t.Errorf("%d notifications sent during the registration, want 1 (resources)", sent)
	}
	l.finished.Store(time.Now().Add(-toolsSettle).UnixNano())
	send("notifications/tools/list_changed")
	if sent != 2 {
		t.Errorf("a tools list_changed after the registration settled was dropped")
	}
}

// A client connected at once lists every tool, the same as once the
// registration is long over.
func TestLazyToolsListedAtOnce(t *testing.T) {
	cs, _, s := connect(t, Config{Roots: []string{realTemp(t)}}, legacy)
	first, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	s.tools.close()
	again, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(first.Tools) < 20 || len(first.Tools) != len(again.Tools) {
		t.Errorf("%d tools at once, %d later; want the same, at least 20", len(first.Tools), len(again.Tools))
	}
}

// The watches start after the initialize answer is ready, or before any
// other first message; once.
func TestAfterFirst(t *testing.T) {
	for _, tt := range []struct {
		methods []string
		want    []string
	}{
		{[]string{"initialize", "notifications/initialized", "tools/list"},
			[]string{"initialize", "start", "notifications/initialized", "tools/list"}},
		{[]string{"server/discover", "resources/subscribe"},
			[]string{"start", "server/discover", "resources/subscribe"}},
		{[]string{"resources/subscribe", "initialize"},
			[]string{"start", "resources/subscribe", "initialize"}},
	} {
		t.Run(tt.methods[0], func(t *testing.T) {
			var got []string
			a := &afterFirst{start: func() { got = append(got, "start") }}
			h := a.middleware(func(_ context.Context, method string, _ mcp.Request) (mcp.Result, error) {
				got = append(got, method)
				return nil, nil
			})
			for _, m := range tt.methods {
				if _, err := h(context.Background(), m, nil); err != nil {
					t.Fatal(err)
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("order mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
