package server

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/grove-mcp/grove/internal/panics"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// lazyTools registers the tools in the background, so that start-up does not
// wait for it: inferring, resolving and checking the JSON schemas of ~35 tools
// was half of the CPU time from spawn to the initialize answer, which needs
// none of them. tools/list and tools/call wait until it is done.
//
// Tools added once a session exists make the SDK announce
// notifications/tools/list_changed (debounced, 10 ms after the last one, or
// later on a loaded machine). grove registers its tools once and never
// changes them, so every such announcement is noise: quiet drops them. A
// feature that adds or removes tools at run time must change quiet first.
//
// A tools/call waits for its own tool only (registered, through
// scope.Registrar): a client that calls git_status right after initialize
// waited ~5 ms for some 40 tools it did not name, a quarter of what git
// status takes on 5,000 files.
type lazyTools struct {
	done chan struct{} // closed when the registration has ended
	err  error         // a panic while registering; set before done closes
	wg   sync.WaitGroup

	mu      sync.Mutex      // guards the fields below
	ready   map[string]bool // the tools registered so far
	changed chan struct{}   // closed when a tool is registered; nil until someone waits
}

// Registered tells a first tools/call that waits for tool that it can go on
// (scope.Registrar).
func (s *Server) Registered(tool string) { s.tools.registered(tool) }

// registered notes that tool can be called.
func (l *lazyTools) registered(tool string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.ready == nil {
		l.ready = map[string]bool{}
	}
	l.ready[tool] = true
	if l.changed != nil {
		close(l.changed)
		l.changed = nil
	}
}

// waitTool returns once tool is registered or the registration has ended,
// and reports which: true when tool is ready while others may still be
// coming.
func (l *lazyTools) waitTool(ctx context.Context, tool string) (bool, error) {
	for {
		l.mu.Lock()
		if l.ready[tool] {
			l.mu.Unlock()
			return true, nil
		}
		if l.changed == nil {
			l.changed = make(chan struct{})
		}
		changed := l.changed
		l.mu.Unlock()
		select {
		case <-changed:
		case <-l.done:
			return false, nil
		case <-ctx.Done():
			return false, ctx.Err()
		}
	}
}

// start runs register on its own goroutine. A panic there (a tool whose
// types have no schema: a programmer's error) is logged, and every
// tools/list and tools/call answers it as an internal error.
func (l *lazyTools) start(register func(), log *slog.Logger) {
	l.done = make(chan struct{})
	l.wg.Go(func() {
		defer close(l.done)
		if l.err = registerCatching(register); l.err != nil {
			log.Error("registering the tools failed", "err", l.err)
		}
	})
}

func registerCatching(register func()) (err error) {
	defer panics.Catch(&err)
	register()
	return nil
}

// wait holds tools/list and tools/call until the tools are registered.
func (l *lazyTools) wait(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if p := callParams(method, req); p != nil {
			ready, err := l.waitTool(ctx, p.Name)
			if err != nil {
				return nil, err
			}
			if !ready && l.err != nil {
				return nil, l.err
			}
			return next(ctx, method, req)
		}
		if method == "tools/list" || method == "tools/call" {
			select {
			case <-l.done:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			if l.err != nil {
				return nil, l.err
			}
		}
		return next(ctx, method, req)
	}
}

// callParams returns a tools/call's parameters, nil for another request.
func callParams(method string, req mcp.Request) *mcp.CallToolParamsRaw {
	if method != "tools/call" || req == nil {
		return nil
	}
	p, _ := req.GetParams().(*mcp.CallToolParamsRaw)
	return p
}

// quiet drops notifications/tools/list_changed: see lazyTools.
func (l *lazyTools) quiet(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method == "notifications/tools/list_changed" {
			return nil, nil
		}
		return next(ctx, method, req)
	}
}

// close waits for the registration to end.
func (l *lazyTools) close() error {
	l.wg.Wait()
	return nil
}

// afterFirst runs start once: when the first initialize request has been
// answered, or before the first other message (a modern client sends no
// initialize). Watching the roots and warming their repositories is I/O and
// CPU that the handshake does not need, and on a small machine it would
// compete with the answer; every request that does need it comes later.
//
// A first tools/call, or tools/list and ping, need none of it either: after
// initialize, start waits callWindow for them, and once a tools/call is under
// way it waits for its answer (maxCallWait at most: the first grep of a 1 GB
// tree takes seconds). A first grep, the call an
// agent makes most, then runs alone instead of beside the watcher's walk of
// the tree and the status pre-scan, which took a third of its CPU.
type afterFirst struct {
	once  sync.Once
	start func()
	log   *slog.Logger // nil discards

	mu      sync.Mutex // guards the fields below
	ran     bool       // start has begun
	stopped bool       // the server is closing: start never runs
	inited  bool       // an initialize was answered: start is on a timer
	calls   int        // first tools/call requests under way
	timers  []*time.Timer
}

const (
	// callWindow is how long after initialize start waits for a first
	// tools/call: a client that calls at once gets its answer first.
	callWindow = 100 * time.Millisecond
	// maxCallWait bounds how long calls under way hold start back.
	maxCallWait = 10 * time.Second
	// answerDelay leaves a first call's answer the time to be written.
	answerDelay = 10 * time.Millisecond
)

func (a *afterFirst) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		switch {
		case method == "initialize":
			defer a.initialized()
		case method == "tools/call":
			if a.beginCall() {
				defer a.endCall()
			}
		case method == "tools/list" || method == "ping" || strings.HasPrefix(method, "notifications/"):
			if !a.waiting() {
				a.fire()
			}
		default:
			a.fire()
		}
		return next(ctx, method, req)
	}
}

// waiting reports whether start is held back: after initialize, or while
// a first call is under way.
func (a *afterFirst) waiting() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.inited || a.calls > 0
}

func (a *afterFirst) initialized() {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.ran || a.inited {
		return
	}
	a.inited = true
	a.afterLocked(callWindow, false)
}

// beginCall notes a tools/call that comes before start; false once start
// has begun.
func (a *afterFirst) beginCall() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.ran {
		return false
	}
	a.calls++
	if a.calls == 1 {
		a.afterLocked(maxCallWait, true)
	}
	return true
}

// endCall runs start once the last first call has ended, answerDelay
// later: the middleware returns before the SDK writes the answer.
func (a *afterFirst) endCall() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.calls--
	if a.calls == 0 {
		a.afterLocked(answerDelay, true)
	}
}

// afterLocked runs start in d; unless forced, not while calls are under
// way (the last one's end runs it). a.mu held.
func (a *afterFirst) afterLocked(d time.Duration, force bool) {
	a.timers = append(a.timers, time.AfterFunc(d, func() {
		defer panics.Log(a.logger(), "starting the watches")
		a.mu.Lock()
		busy := a.calls > 0
		a.mu.Unlock()
		if force || !busy {
			a.fire()
		}
	}))
}

// fire runs start once, unless the server is closing; a caller that comes
// while it runs waits for it.
func (a *afterFirst) fire() {
	a.mu.Lock()
	if a.stopped {
		a.mu.Unlock()
		return
	}
	a.ran = true
	a.mu.Unlock()
	a.once.Do(a.start)
}

// close keeps start from running from now on.
func (a *afterFirst) close() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.stopped = true
	for _, t := range a.timers {
		t.Stop()
	}
	return nil
}

func (a *afterFirst) logger() *slog.Logger {
	if a.log == nil {
		return slog.New(slog.DiscardHandler)
	}
	return a.log
}
