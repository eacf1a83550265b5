package server

import (
	"context"
	"errors"
	"log/slog"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/grove-mcp/grove/internal/servertest"
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

// The SDK's announcements of the registration are dropped, however late they
// come; other notifications pass.
func TestLazyToolsQuiet(t *testing.T) {
	var l lazyTools
	var sent []string
	h := l.quiet(func(_ context.Context, method string, _ mcp.Request) (mcp.Result, error) {
		sent = append(sent, method)
		return nil, nil
	})
	for _, m := range []string{
		"notifications/tools/list_changed",
		"notifications/resources/list_changed",
		"notifications/prompts/list_changed",
		"notifications/tools/list_changed",
		"notifications/resources/updated",
	} {
		if _, err := h(context.Background(), m, nil); err != nil {
			t.Fatal(err)
		}
	}
	want := []string{"notifications/resources/list_changed", "notifications/prompts/list_changed", "notifications/resources/updated"}
	if diff := cmp.Diff(want, sent); diff != "" {
		t.Errorf("notifications sent mismatch (-want +got):\n%s", diff)
	}
}

// A session connected while the tools register gets no tools list_changed
// for it: a resources list_changed scheduled after the registration, with the
// same debounce, arrives without one before it.
func TestLazyToolsNoAnnouncement(t *testing.T) {
	var tools atomic.Int32
	resources := make(chan struct{}, 1)
	opts := &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { tools.Add(1) },
		ResourceListChangedHandler: func(context.Context, *mcp.ResourceListChangedRequest) {
			select {
			case resources <- struct{}{}:
			default:
			}
		},
	}
	_, _, s := connectWith(t, Config{Roots: []string{servertest.RealTemp(t)}}, servertest.Legacy, opts)
	s.tools.close()
	s.files.ListChanged(s.mcp)
	select {
	case <-resources:
	case <-time.After(30 * time.Second):
		t.Fatal("no resources list_changed")
	}
	if n := tools.Load(); n != 0 {
		t.Errorf("%d tools list_changed for the start-up registration, want none", n)
	}
}

// A client connected at once lists every tool, the same as once the
// registration is long over.
func TestLazyToolsListedAtOnce(t *testing.T) {
	cs, _, s := connect(t, Config{Roots: []string{servertest.RealTemp(t)}}, servertest.Legacy)
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

// The watches start when the initialize answer is ready, or before any
// other first message, once; but not while a first tools/call runs, nor
// before the callWindow after initialize has passed.
func TestAfterFirst(t *testing.T) {
	for _, tt := range []struct {
		methods []string
		want    []string
	}{
		{[]string{"initialize", "notifications/initialized", "tools/list"},
			[]string{"initialize", "notifications/initialized", "tools/list", "start"}},
		{[]string{"initialize", "notifications/initialized", "tools/call", "resources/read"},
			[]string{"initialize", "notifications/initialized", "tools/call", "tools/call done", "start", "resources/read"}},
		{[]string{"tools/call", "resources/subscribe"},
			[]string{"tools/call", "tools/call done", "start", "resources/subscribe"}},
		{[]string{"server/discover", "resources/subscribe"},
			[]string{"start", "server/discover", "resources/subscribe"}},
		{[]string{"resources/subscribe", "initialize"},
			[]string{"start", "resources/subscribe", "initialize"}},
	} {
		t.Run(tt.methods[0], func(t *testing.T) {
			var mu sync.Mutex
			var got []string
			note := func(s string) {
				mu.Lock()
				defer mu.Unlock()
				got = append(got, s)
			}
			started := make(chan struct{})
			a := &afterFirst{start: func() { note("start"); close(started) }}
			defer a.close()
			h := a.middleware(func(_ context.Context, method string, _ mcp.Request) (mcp.Result, error) {
				note(method)
				if method == "tools/call" {
					time.Sleep(2 * callWindow) // the window passes while the call runs
					note("tools/call done")
				}
				return nil, nil
			})
			for _, m := range tt.methods {
				if _, err := h(context.Background(), m, nil); err != nil {
					t.Fatal(err)
				}
			}
			select {
			case <-started:
			case <-time.After(servertest.WaitLimit):
				t.Fatal("start never ran")
			}
			mu.Lock()
			defer mu.Unlock()
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("order mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestAfterFirstClosed(t *testing.T) {
	ran := make(chan struct{})
	a := &afterFirst{start: func() { close(ran) }}
	h := a.middleware(func(context.Context, string, mcp.Request) (mcp.Result, error) { return nil, nil })
	if _, err := h(context.Background(), "initialize", nil); err != nil {
		t.Fatal(err)
	}
	a.close()
	select {
	case <-ran:
		t.Fatal("start ran after close")
	case <-time.After(3 * callWindow):
	}
}

// A tools/call waits for its own tool only; tools/list, and a call of a tool
// not yet registered, wait for the whole registration.
func TestLazyToolsWaitsForItsTool(t *testing.T) {
	var l lazyTools
	first, release := make(chan struct{}), make(chan struct{})
	l.start(func() {
		l.registered("git_status")
		close(first)
		<-release
		l.registered("grep")
	}, slog.New(slog.DiscardHandler))
	defer l.close()
	<-first
	h := l.wait(answered)
	call := func(tool string) mcp.Request {
		return &mcp.ServerRequest[*mcp.CallToolParamsRaw]{Params: &mcp.CallToolParamsRaw{Name: tool}}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := h(ctx, "tools/call", call("git_status")); err != nil {
		t.Fatalf("a call of a registered tool while others register: %v", err)
	}
	results := make(chan string, 3)
	for _, c := range []struct {
		method string
		req    mcp.Request
	}{
		{"tools/call", call("grep")},
		{"tools/call", call("no_such_tool")},
		{"tools/list", &mcp.ListToolsRequest{Params: &mcp.ListToolsParams{}}},
	} {
		go func() {
			if _, err := h(context.Background(), c.method, c.req); err != nil {
				t.Errorf("%s: %v", c.method, err)
			}
			results <- c.method
		}()
	}
	select {
	case m := <-results:
		t.Fatalf("%s was answered before its tool was registered", m)
	case <-time.After(50 * time.Millisecond):
	}
	close(release)
	for range 3 {
		select {
		case <-results:
		case <-time.After(10 * time.Second):
			t.Fatal("calls still held 10 s after the registration ended")
		}
	}
}

// While a call of a registered tool runs, the registration waits; a call of a
// tool not yet registered, or a tools/list, makes it go on at once; and it
// goes on when the running call ends.
func TestLazyToolsYield(t *testing.T) {
	var l lazyTools
	registeredB := make(chan struct{})
	l.start(func() {
		l.registered("a")
		l.registered("b")
		close(registeredB)
		l.registered("c")
	}, slog.New(slog.DiscardHandler))
	defer l.close()
	call := func(tool string) mcp.Request {
		return &mcp.ServerRequest[*mcp.CallToolParamsRaw]{Params: &mcp.CallToolParamsRaw{Name: tool}}
	}
	running, release := make(chan struct{}), make(chan struct{})
	h := l.wait(func(_ context.Context, _ string, req mcp.Request) (mcp.Result, error) {
		if p, ok := req.GetParams().(*mcp.CallToolParamsRaw); ok && p.Name == "a" {
			close(running)
			<-release
		}
		return &mcp.CallToolResult{}, nil
	})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := h(ctx, "tools/call", call("a"))
		done <- err
	}()
	<-running
	// The registration may have gone past "b" before the call of "a" was
	// under way; once it yields it stays there until released.
	l.mu.Lock()
	readyB := l.ready["b"]
	l.mu.Unlock()
	if !readyB {
		select {
		case <-registeredB:
			t.Fatal("the registration went on while a call ran")
		case <-time.After(50 * time.Millisecond):
		}
	}
	// A call of a tool not yet registered does not wait for the running one.
	if _, err := h(ctx, "tools/call", call("c")); err != nil {
		t.Fatalf("calling c while a runs: %v", err)
	}
	if _, err := h(ctx, "tools/list", &mcp.ListToolsRequest{Params: &mcp.ListToolsParams{}}); err != nil {
		t.Fatalf("tools/list while a runs: %v", err)
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatalf("calling a: %v", err)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.running != 0 || len(l.pending) != 0 || l.lists != 0 {
		t.Errorf("after the calls: %d running, %d pending, %d lists; want none", l.running, len(l.pending), l.lists)
	}
}

// The registration resumes when the running call ends, and after maxYield at
// most while it runs on.
func TestLazyToolsYieldEnds(t *testing.T) {
	for _, endCall := range []bool{true, false} {
		t.Run(map[bool]string{true: "call ends", false: "maxYield"}[endCall], func(t *testing.T) {
			if !endCall {
				defer func(d time.Duration) { maxYield = d }(maxYield)
				maxYield = 20 * time.Millisecond
			}
			var l lazyTools
			gate := make(chan struct{})
			l.start(func() {
				l.registered("a")
				<-gate
				l.registered("b") // yields here while a runs
				l.registered("c")
			}, slog.New(slog.DiscardHandler))
			defer l.close()
			running, release := make(chan struct{}), make(chan struct{})
			defer close(release)
			h := l.wait(func(context.Context, string, mcp.Request) (mcp.Result, error) {
				close(running)
				<-release
				return &mcp.CallToolResult{}, nil
			})
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			go h(ctx, "tools/call", &mcp.ServerRequest[*mcp.CallToolParamsRaw]{Params: &mcp.CallToolParamsRaw{Name: "a"}})
			<-running
			close(gate)
			if endCall {
				select {
				case <-l.done:
					t.Fatal("the registration ended while a call ran")
				case <-time.After(50 * time.Millisecond):
				}
				release <- struct{}{} // the call ends
			}
			select {
			case <-l.done:
			case <-time.After(10 * time.Second):
				t.Fatal("the registration did not resume")
			}
		})
	}
}

// maxYield bounds the registration's giving way in all, not per tool: once
// it has given way that long, a call still running holds no further tool.
func TestLazyToolsYieldBudgetIsShared(t *testing.T) {
	defer func(d time.Duration) { maxYield = d }(maxYield)
	maxYield = 30 * time.Millisecond
	var l lazyTools
	gate := make(chan struct{})
	l.start(func() {
		l.registered("a")
		<-gate                // the call runs from here on
		for i := range 1000 { // 1,000 tools at 30 ms each would take 30 s
			l.registered("t" + strconv.Itoa(i))
		}
	}, slog.New(slog.DiscardHandler))
	defer l.close()
	running, release := make(chan struct{}), make(chan struct{})
	defer close(release)
	h := l.wait(func(context.Context, string, mcp.Request) (mcp.Result, error) {
		close(running)
		<-release // runs until the test ends
		return &mcp.CallToolResult{}, nil
	})
	go h(context.Background(), "tools/call", &mcp.ServerRequest[*mcp.CallToolParamsRaw]{Params: &mcp.CallToolParamsRaw{Name: "a"}})
	<-running
	close(gate)
	select {
	case <-l.done:
	case <-time.After(10 * time.Second):
		t.Fatal("the registration still gives way to the call after 10 s")
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.yielded < maxYield {
		t.Errorf("the registration gave way %v in all, less than maxYield %v, though the call ran throughout", l.yielded, maxYield)
	}
}

// The registration runs with one processor more than the process had, which
// it gives back when it ends, also when two registrations overlap.
func TestLazyToolsSpareProc(t *testing.T) {
	before := runtime.GOMAXPROCS(0)
	var first, second lazyTools
	release := make(chan struct{})
	during := make(chan int, 2)
	register := func() {
		during <- runtime.GOMAXPROCS(0)
		<-release
	}
	first.start(register, slog.New(slog.DiscardHandler))
	second.start(register, slog.New(slog.DiscardHandler))
	for range 2 {
		if got := <-during; got != before+1 {
			t.Errorf("GOMAXPROCS while registering = %d, want %d", got, before+1)
		}
	}
	close(release)
	first.close()
	second.close()
	if got := runtime.GOMAXPROCS(0); got != before {
		t.Errorf("GOMAXPROCS after the registrations = %d, want %d as before", got, before)
	}
}
