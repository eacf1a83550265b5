package server

import (
	"context"
	"log/slog"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/grove-mcp/grove/internal/servertest"
	"github.com/grove-mcp/grove/roots"
	"github.com/grove-mcp/grove/watch"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// recorded is a slog.Handler that keeps every message.
type recorded struct {
	mu   sync.Mutex
	msgs []string
}

func (h *recorded) Enabled(context.Context, slog.Level) bool { return true }
func (h *recorded) WithAttrs([]slog.Attr) slog.Handler       { return h }
func (h *recorded) WithGroup(string) slog.Handler            { return h }
func (h *recorded) Handle(_ context.Context, r slog.Record) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.msgs = append(h.msgs, r.Message)
	return nil
}

func (h *recorded) has(msg string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Contains(h.msgs, msg)
}

// A panic while applying the client's roots (on the goroutine that fetched
// them) is logged; requests waiting for the roots are answered, and the
// session goes on.
func TestRootsFetchPanic(t *testing.T) {
	base := servertest.RealTemp(t)
	servertest.Mkdirs(t, base, "sub")
	logs := &recorded{}
	s, err := New(Config{Roots: []string{base}, Logger: slog.New(logs)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	s.client.onChange = func(context.Context, *roots.Scope, *roots.Scope) { panic("bug") }
	cs := connectTo(t, s, servertest.Legacy, filepath.Join(base, "sub"))
	for range 2 {
		if got := paths(listRoots(t, cs)); !slices.Equal(got, []string{filepath.Join(base, "sub")}) {
			t.Errorf("roots %v, want the client's", got)
		}
	}
	if !logs.has("goroutine panicked") {
		t.Error("the panic was not logged")
	}
}

// A panic while watching new roots (a crafted .gitignore met on the walk)
// is logged, and whoever waits for the watches is released.
func TestRootsWatcherPanic(t *testing.T) {
	dir := servertest.RealTemp(t)
	servertest.Mkdirs(t, dir, "boom")
	w, err := watch.New(watch.Options{Ignore: func(abs string, _ bool) bool {
		if filepath.Base(abs) == "boom" {
			panic("crafted ignore rules")
		}
		return false
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	logs := &recorded{}
	rw := newRootsWatcher(w, &watchHealth{logger: slog.New(logs)}, slog.New(logs))
	defer rw.close()
	set, err := roots.NewSet([]string{dir}, nil)
	if err != nil {
		t.Fatal(err)
	}
	rw.set(set.Scope())
	rw.wait()
	rw.mu.Lock()
	settled := rw.settled
	rw.mu.Unlock()
	select {
	case <-settled:
	default:
		t.Error("wait returned before the roots settled")
	}
	if !logs.has("goroutine panicked") {
		t.Error("the panic was not logged")
	}
}

// A panic while delivering one batch costs that batch only.
func TestDeliverPanic(t *testing.T) {
	w, err := watch.New(watch.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	logs := &recorded{}
	n := newNotifier(mcp.NewServer(&mcp.Implementation{Name: "t"}, nil), w, slog.New(logs))
	calls := 0
	n.gitChanged = func(string) {
		calls++
		if calls == 1 {
			panic("bug")
		}
	}
	n.deliverSafely(watch.Batch{Git: []string{"/repo"}})
	n.deliverSafely(watch.Batch{Git: []string{"/repo"}})
	if calls != 2 || !logs.has("goroutine panicked") {
		t.Errorf("%d batches delivered, panic logged %v; want 2, true", calls, logs.has("goroutine panicked"))
	}
}

// A wake-up left behind by a set whose roots the same pass applied (set
// runs between the worker's wake-up and its read of the pending roots)
// finds the roots settled already: it must not close them again, which
// panicked with the lock held and hung every later subscription.
func TestRootsWatcherLeftoverWake(t *testing.T) {
	dir := servertest.RealTemp(t)
	w, err := watch.New(watch.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	logs := &recorded{}
	rw := newRootsWatcher(w, &watchHealth{logger: slog.New(logs)}, slog.New(logs))
	defer rw.close()
	set, err := roots.NewSet([]string{dir}, nil)
	if err != nil {
		t.Fatal(err)
	}
	rw.set(set.Scope())
	rw.wait()
	rw.wake <- struct{}{} // the leftover: nothing pending
	rw.set(set.Scope())
	done := make(chan struct{})
	go func() {
		rw.wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(settleTimeout / 2):
		t.Fatal("wait hung after a leftover wake-up")
	}
	if logs.has("goroutine panicked") {
		t.Error("the worker panicked on a leftover wake-up")
	}
}
