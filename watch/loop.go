package watch

import (
	"errors"
	"path/filepath"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
	"github.com/grove-mcp/grove/internal/panics"
)

// maxInbox bounds the events held for run (about 100 bytes each). Past it, events are dropped and
// replaced by a rescan, as the kernel does with its own queue.
const maxInbox = 1 << 18

var errInboxFull = errors.New("watch: more than 262,144 events pending")

// inbox hands events from drain to run without ever blocking drain: the kernel queue (16k events by
// default) overflows if fsnotify's reader stalls, and run may be busy adding watches for a new tree.
type inbox struct {
	mu     sync.Mutex // guards all fields below
	events []fsnotify.Event
	errs   []error // lost events (fsnotify.ErrEventOverflow, errInboxFull) come with rescan
	rescan bool
}

func (in *inbox) take() (events []fsnotify.Event, errs []error, rescan bool) {
	in.mu.Lock()
	defer in.mu.Unlock()
	events, errs, rescan = in.events, in.errs, in.rescan
	in.events, in.errs, in.rescan = nil, nil, false
	return events, errs, rescan
}

func (in *inbox) add(ev fsnotify.Event) {
	in.mu.Lock()
	defer in.mu.Unlock()
	switch {
	case len(in.events) < maxInbox:
		in.events = append(in.events, ev)
	case !in.rescan:
		in.errs = append(in.errs, errInboxFull)
		in.rescan = true
	}
}

func (in *inbox) fail(err error) {
	in.mu.Lock()
	defer in.mu.Unlock()
	in.errs = append(in.errs, err)
	in.rescan = in.rescan || errors.Is(err, fsnotify.ErrEventOverflow)
}

func (w *Watcher) poke() {
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// drain empties fsnotify's channels as fast as it can. It never calls Add (fsnotify#502: Add takes the lock
// fsnotify's reader holds while it sends to Events, so Add from here can deadlock).
func (w *Watcher) drain() {
	for {
		select {
		case <-w.stop:
			return // fsnotify's reader stops sending once closed, so it can't block on us
		case ev, ok := <-w.k.Events():
			if !ok {
				return
			}
			w.inbox.add(ev)
		case err, ok := <-w.k.Errors():
			if !ok {
				return
			}
			w.inbox.fail(err)
		}
		w.poke()
	}
}

// Rescan re-walks the roots in the background, re-adding watches and dropping those of vanished
// directories, and then delivers a batch with Rescan set. The Watcher does it by itself when events were
// lost; call it when the ignore rules changed (a .gitignore was edited), so that newly ignored directories
// stop being watched and newly unignored ones start.
func (w *Watcher) Rescan() {
	w.inbox.mu.Lock()
	w.inbox.rescan = true
	w.inbox.mu.Unlock()
	w.poke()
}

// run turns events into batches, adds and drops watches, polls, and delivers batches.
func (w *Watcher) run() {
	defer close(w.out)
	b := newBatcher(w.opts.Debounce, w.opts.MaxDelay)
	defer b.timer.Stop()
	poll := time.NewTicker(w.opts.PollInterval)
	defer poll.Stop()
	for {
		var out chan<- Batch
		if b.hasReady {
			out = w.out
		}
		select {
		case <-w.stop:
			return
		case <-w.wake:
			n := b.pending.size()
			w.safely("applying file events", func() { w.process(&b.pending) })
			if b.pending.size() != n {
				b.touched(time.Now())
			}
		case <-b.timer.C:
			b.flush()
		case out <- b.readyBatch:
			b.delivered()
		case <-poll.C:
			n := b.pending.size()
			w.safely("polling files", func() { w.poll(&b.pending) })
			if b.pending.size() != n {
				b.touched(time.Now())
			}
		}
	}
}

// safely runs one step of run. A panic in it (a bug, or the Ignore callback
// failing on a crafted .gitignore) is logged and degrades the Watcher, whose
// Status says so, instead of ending change notifications or the process.
// The step's events are lost; no rescan is started, since a step that
// panics on the tree would panic again.
func (w *Watcher) safely(work string, step func()) {
	done := false
	defer func() {
		if !done {
			w.mu.Lock()
			w.degrade("internal error while " + work + " (logged); some changes may be missed")
			w.mu.Unlock()
		}
	}()
	defer panics.Log(w.log, work)
	step()
	done = true
}

// process applies what drain collected.
func (w *Watcher) process(c *changes) {
	events, errs, rescan := w.inbox.take()
	for _, err := range errs {
		w.log.Warn("file watching error; rescanning the roots if events were lost", "err", err)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if rescan {
		w.loseFeeds("") // before any cookie queued after the loss is released
	}
	var cookies []chan struct{}
	for _, ev := range events {
		if w.stopped() {
			return
		}
		if w.isCookie(filepath.Clean(ev.Name)) {
			w.cookie(ev, &cookies)
			continue
		}
		w.handle(ev, c)
	}
	if rescan && !w.stopped() {
		w.rescan()
		c.rescan = true
	}
	w.shed()
	for _, ch := range cookies {
		close(ch) // last: the events before each cookie are applied
	}
}
