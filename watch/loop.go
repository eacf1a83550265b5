package watch

import (
	"errors"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
)

// maxInbox bounds the events held for run (about 100 bytes each). Past it, events are replaced by an
// overflow, exactly as the kernel does with its own queue: run then rescans and sends Rescan.
const maxInbox = 1 << 18

// inbox hands events from drain to run without ever blocking drain: the kernel queue (16k events by
// default) overflows if fsnotify's reader stalls, and run may be busy adding watches for a new tree.
type inbox struct {
	mu       sync.Mutex // guards all fields below
	events   []fsnotify.Event
	errs     []error
	overflow bool
}

func (in *inbox) take() (events []fsnotify.Event, errs []error, overflow bool) {
	in.mu.Lock()
	defer in.mu.Unlock()
	events, errs, overflow = in.events, in.errs, in.overflow
	in.events, in.errs, in.overflow = nil, nil, false
	return events, errs, overflow
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
		case ev, ok := <-w.fsn.Events:
			if !ok {
				return
			}
			w.inbox.mu.Lock()
			if len(w.inbox.events) < maxInbox {
				w.inbox.events = append(w.inbox.events, ev)
			} else {
				w.inbox.overflow = true
			}
			w.inbox.mu.Unlock()
		case err, ok := <-w.fsn.Errors:
			if !ok {
				return
			}
			if errors.Is(err, fsnotify.ErrEventOverflow) {
				w.overflowed()
				continue
			}
			w.inbox.mu.Lock()
			w.inbox.errs = append(w.inbox.errs, err)
			w.inbox.mu.Unlock()
		}
		w.poke()
	}
}

// overflowed is what drain does on fsnotify.ErrEventOverflow: run rescans the roots and sends Rescan.
func (w *Watcher) overflowed() {
	w.inbox.mu.Lock()
	w.inbox.overflow = true
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
			w.process(&b.pending)
			if b.pending.size() != n {
				b.touched(time.Now())
			}
		case <-b.timer.C:
			b.flush()
		case out <- b.readyBatch:
			b.delivered()
		case <-poll.C:
			n := b.pending.size()
			w.poll(&b.pending)
			if b.pending.size() != n {
				b.touched(time.Now())
			}
		}
	}
}

// process applies what drain collected.
func (w *Watcher) process(c *changes) {
	events, errs, overflow := w.inbox.take()
	for _, err := range errs {
		w.log.Warn("fsnotify error", "err", err)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, ev := range events {
		if w.stopped() {
			return
		}
		w.handle(ev, c)
	}
	if overflow && !w.stopped() {
		w.log.Warn("inotify queue overflowed: events were lost, rescanning the roots")
		w.rescan()
		c.rescan = true
	}
}
