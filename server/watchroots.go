package server

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/grove-mcp/grove/gittools"
	"github.com/grove-mcp/grove/internal/panics"
	"github.com/grove-mcp/grove/roots"
	"github.com/grove-mcp/grove/watch"
)

// rootsWatcher applies roots changes to the watcher on its own goroutine, the
// newest change winning: a change that arrives while an older one is being
// set up replaces any not yet started.
type rootsWatcher struct {
	w      *watch.Watcher
	logger *slog.Logger
	health *watchHealth
	wake   chan struct{}
	stop   chan struct{}
	wg     sync.WaitGroup

	mu      sync.Mutex    // guards the fields below
	pending *roots.Scope  // the newest scope not yet applied
	settled chan struct{} // closed once no scope is pending or being applied
}

// settleTimeout bounds how long a subscription waits for the watches of the
// roots in force: a tree too large to watch quickly still gets its answer.
const settleTimeout = 10 * time.Second

func newRootsWatcher(w *watch.Watcher, health *watchHealth, logger *slog.Logger) *rootsWatcher {
	rw := &rootsWatcher{w: w, logger: logger, health: health, wake: make(chan struct{}, 1), stop: make(chan struct{}), settled: make(chan struct{})}
	close(rw.settled)
	rw.wg.Go(rw.run)
	return rw
}

func (rw *rootsWatcher) set(sc *roots.Scope) {
	rw.mu.Lock()
	rw.pending = sc
	select {
	case <-rw.settled:
		rw.settled = make(chan struct{})
	default:
	}
	rw.mu.Unlock()
	select {
	case rw.wake <- struct{}{}:
	default:
	}
}

func (rw *rootsWatcher) run() {
	defer panics.Log(rw.logger, "watching the roots")
	for {
		select {
		case <-rw.stop:
			return
		case <-rw.wake:
		}
		rw.mu.Lock()
		sc := rw.pending
		rw.pending = nil
		rw.mu.Unlock()
		if sc != nil {
			rw.apply(sc)
		}
		rw.mu.Lock()
		select {
		case <-rw.settled: // a wake-up left by a set whose roots were applied already
		default:
			if rw.pending == nil {
				close(rw.settled)
			}
		}
		rw.mu.Unlock()
	}
}

// apply watches the roots of sc; a panic (a crafted .gitignore met while
// walking, a bug) costs this change only, and waiters are still released.
func (rw *rootsWatcher) apply(sc *roots.Scope) {
	defer panics.Log(rw.logger, "watching new roots")
	var dirs []string
	for _, r := range sc.Roots() {
		dirs = append(dirs, r.Path)
	}
	if err := rw.w.SetRoots(dirs); err != nil {
		rw.logger.Warn("some roots are not watched", "err", err)
	}
	rw.health.check(rw.w.Status())
}

// wait returns once the newest roots are watched, or after settleTimeout.
func (rw *rootsWatcher) wait() {
	rw.mu.Lock()
	ch := rw.settled
	rw.mu.Unlock()
	t := time.NewTimer(settleTimeout)
	defer t.Stop()
	select {
	case <-ch:
	case <-t.C:
	case <-rw.stop:
	}
}

func (rw *rootsWatcher) close() error {
	close(rw.stop)
	rw.wg.Wait()
	return nil
}

// watchHealth tells the client when watching degrades (the watch limit was
// reached: changes in some directories go unreported) and when it recovers.
type watchHealth struct {
	logger *slog.Logger

	mu       sync.Mutex // guards degraded
	degraded bool
}

func (h *watchHealth) check(st watch.Status) {
	h.mu.Lock()
	was := h.degraded
	h.degraded = st.Degraded
	h.mu.Unlock()
	switch {
	case st.Degraded && !was && !strings.Contains(st.Reason, "limit"):
		h.logger.Warn("file watching is degraded after an internal error; some changes may not be reported",
			clientAudience, "watched_directories", st.Watches)
	case st.Degraded && !was:
		// Not st.Reason: it names a directory by its real path.
		h.logger.Warn("watch limit reached: file watching is degraded; changes in the directories past the limit "+
			"are not reported, except for subscribed files, which are polled", clientAudience,
			"watched_directories", st.Watches, "system_limit", st.Limit)
	case !st.Degraded && was:
		h.logger.Info("file watching is no longer degraded", clientAudience, "watched_directories", st.Watches)
	}
}

// statusFeed adapts the watcher to gittools.ChangeFeed: warm git_status
// learns from it which paths of a worktree changed since it last looked.
type statusFeed struct{ w *watch.Watcher }

func (s statusFeed) Watch(worktree string) gittools.WorktreeChanges {
	return feedChanges{s.w.Subscribe(worktree)}
}

type feedChanges struct{ f *watch.Feed }

func (c feedChanges) Sync(ctx context.Context) ([]string, bool, error) {
	ch, err := c.f.Sync(ctx)
	return ch.Paths, ch.Lost, err
}

func (c feedChanges) Cover(dirs []string) bool { return c.f.Cover(dirs) }

func (c feedChanges) Close() { c.f.Close() }
