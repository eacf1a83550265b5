package server

import (
	"context"
	"log/slog"
	"os"
	"runtime"
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
// status takes on 5,000 files. While such a call runs, the registration of
// the others waits for it to end (yield), unless a request waits for them.
type lazyTools struct {
	done    chan struct{} // closed when the registration has ended
	err     error         // a panic while registering; set before done closes
	closing chan struct{} // closed by close: the registration no longer gives way
	closed  sync.Once
	wg      sync.WaitGroup

	mu      sync.Mutex      // guards the fields below
	ready   map[string]bool // the tools registered so far
	changed chan struct{}   // closed when a tool is registered; nil until someone waits
	// The registration gives way to calls (see yield): running counts the
	// tools/call handlers under way (or woken to run) whose tool is
	// registered, pending the calls waiting for a tool by name, and lists the
	// tools/list requests waiting for the whole registration.
	running int
	pending map[string]int
	lists   int
	hushed  time.Time     // the registration also waits until then: the last call's answer is being written
	resume  chan struct{} // closed when the registration may go on; nil until it gives way
	yielded time.Duration // how long the registration has given way so far (maxYield at most)
}

// maxYield bounds how long the registration gives way to calls under way, in
// all (yielded counts it across tools and both registering goroutines): a
// call that runs for minutes (a grep of a huge tree) must not keep the rest
// of the tools unlisted that long.
var maxYield = 2 * time.Second

// Registered tells a first tools/call that waits for tool that it can go on
// (scope.Registrar).
func (s *Server) Registered(tool string) { s.tools.registered(tool) }

// registered notes that tool can be called: the calls waiting for it are
// under way from now on. Then, on the registration's goroutine, it gives way
// to the calls under way (yield).
func (l *lazyTools) registered(tool string) {
	l.mu.Lock()
	if l.ready == nil {
		l.ready = map[string]bool{}
	}
	l.ready[tool] = true
	if n := l.pending[tool]; n > 0 {
		delete(l.pending, tool)
		l.running += n
	}
	if l.changed != nil {
		close(l.changed)
		l.changed = nil
	}
	l.mu.Unlock()
	l.yield()
}

// yield holds the registration while tools/call handlers run and no request
// waits for it (maxYield in all). A client that calls git_status right
// after initialize otherwise shares the two cores of a small machine with
// the registration of the ~40 other tools, which also kept the woken
// handler waiting for a core for up to 10 ms, the scheduler's time slice.
func (l *lazyTools) yield() {
	if l.done == nil || isClosed(l.done) {
		return // not on the registration's goroutine
	}
	// Between two tools, the goroutines waiting for a processor go first:
	// the registration's two goroutines would otherwise hold both of a small
	// machine's, and a request read meanwhile would wait for one to be
	// preempted (10 ms) before the server even decodes it.
	runtime.Gosched()
	l.mu.Lock()
	defer l.mu.Unlock()
	for (l.running > 0 || time.Now().Before(l.hushed)) && len(l.pending) == 0 && l.lists == 0 && l.yielded < maxYield {
		if l.resume == nil {
			l.resume = make(chan struct{})
		}
		resume := l.resume
		t := time.NewTimer(maxYield - l.yielded)
		began := time.Now()
		l.mu.Unlock()
		select {
		case <-resume:
		case <-t.C:
		case <-l.closing:
		}
		t.Stop()
		l.mu.Lock()
		l.yielded += time.Since(began)
		if isClosed(l.closing) {
			return
		}
	}
}

// wakeLocked lets a yielding registration check again. l.mu held.
func (l *lazyTools) wakeLocked() {
	if l.resume != nil {
		close(l.resume)
		l.resume = nil
	}
}

// waitTool returns once tool is registered or the registration has ended,
// and reports which: true when tool is ready while others may still be
// coming. On true the call counts as under way until its handler has
// returned (callEnded).
func (l *lazyTools) waitTool(ctx context.Context, tool string) (bool, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.ready[tool] {
		l.running++
		return true, nil
	}
	if l.pending == nil {
		l.pending = map[string]int{}
	}
	l.pending[tool]++
	l.wakeLocked() // the registration must go on until tool is there
	for !l.ready[tool] {
		if l.changed == nil {
			l.changed = make(chan struct{})
		}
		changed := l.changed
		l.mu.Unlock()
		var err error
		select {
		case <-changed:
		case <-l.done:
		case <-ctx.Done():
			err = ctx.Err()
		}
		l.mu.Lock()
		if err != nil || !l.ready[tool] && isClosed(l.done) {
			if l.ready[tool] { // registered meanwhile: counted as under way
				l.running--
				l.wakeLocked()
			} else if l.pending[tool]--; l.pending[tool] == 0 {
				delete(l.pending, tool)
			}
			return false, err
		}
	}
	return true, nil // registered moved the call from pending to running
}

// callEnded notes that a call waitTool let through has been handled. The
// registration waits answerDelay more after the last one: the handler
// returns before the SDK encodes and writes its answer.
func (l *lazyTools) callEnded() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.running--; l.running > 0 {
		return
	}
	l.hushed = time.Now().Add(answerDelay)
	time.AfterFunc(answerDelay, func() {
		l.mu.Lock()
		defer l.mu.Unlock()
		l.wakeLocked()
	})
}

// waitAll returns once the registration has ended; the registration does
// not give way meanwhile.
func (l *lazyTools) waitAll(ctx context.Context) error {
	l.mu.Lock()
	l.lists++
	l.wakeLocked()
	l.mu.Unlock()
	defer func() {
		l.mu.Lock()
		l.lists--
		l.mu.Unlock()
	}()
	select {
	case <-l.done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func isClosed(c chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

// start runs register on its own goroutine, with a spare processor until it
// ends (spareProc). A panic there (a tool whose types have no schema: a
// programmer's error) is logged, and every tools/list and tools/call answers
// it as an internal error.
func (l *lazyTools) start(register func(), log *slog.Logger) {
	l.done, l.closing = make(chan struct{}), make(chan struct{})
	restore := spareProc()
	l.wg.Go(func() {
		defer close(l.done)
		defer restore()
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
			if ready {
				defer l.callEnded()
			}
			return next(ctx, method, req)
		}
		if method == "tools/list" || method == "tools/call" {
			if err := l.waitAll(ctx); err != nil {
				return nil, err
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
	l.closed.Do(func() {
		if l.closing != nil {
			close(l.closing)
		}
	})
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

// spareProc gives the Go scheduler one processor (P) more than it has, until
// the function it returns is called (by every caller: the processor goes
// when the last one has called it). The tools register in the background
// while the first requests come in, and on a small machine that is when a
// request waits longest for a processor: stdin is read in a blocking
// system call, whose thread keeps its P, with the goroutine that will
// handle the line just read queued on that P, while the registration holds
// the other (runtime.Gosched puts it on the global queue, where its own P
// finds it again before it would steal the queued goroutine). The queued
// goroutine then waits for sysmon to take the P from the system call, and
// sysmon, idle a moment before, may look only every 10 ms: a git_status
// sent right after initialize was handled 4-7 ms after its line was read in
// about half of the fresh processes traced. A spare P lets an idle thread
// take the request at once.
func spareProc() func() {
	spare.mu.Lock()
	defer spare.mu.Unlock()
	if spare.users == 0 {
		spare.procs = runtime.GOMAXPROCS(0)
		runtime.GOMAXPROCS(spare.procs + 1)
	}
	spare.users++
	var once sync.Once
	return func() {
		once.Do(func() {
			spare.mu.Lock()
			defer spare.mu.Unlock()
			if spare.users--; spare.users > 0 {
				return
			}
			if _, set := os.LookupEnv("GOMAXPROCS"); set {
				runtime.GOMAXPROCS(spare.procs)
			} else {
				runtime.SetDefaultGOMAXPROCS() // and the runtime follows the CPU limit again
			}
		})
	}
}

// spare counts the callers of spareProc whose function has not run yet.
var spare struct {
	mu    sync.Mutex
	users int
	procs int // GOMAXPROCS before the first of them
}
