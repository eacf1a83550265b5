package watch

import (
	"slices"
	"time"
)

// A Batch is the set of changes of one burst. Lists are sorted and free of duplicates.
type Batch struct {
	// Changed lists paths whose content may have changed: written, truncated, created, removed, renamed
	// from or to. An atomic save (write a temp file, rename it over the target) is a change of the target.
	Changed []string
	Created []string // paths that appeared, files and directories (also by rename)
	Removed []string // paths that disappeared (also by rename)
	Git     []string // worktree directories whose .git/index, HEAD, packed-refs or refs changed, or whose .git appeared or vanished
	// Rescan reports that events were lost (the kernel queue overflowed): anything under the roots may have
	// changed, and consumers must treat every watched path as changed.
	Rescan bool
}

type set map[string]struct{}

func (s *set) add(p string) {
	if *s == nil {
		*s = make(set)
	}
	(*s)[p] = struct{}{}
}

func (s set) merge(o set) set {
	for p := range o {
		s.add(p)
	}
	return s
}

func (s set) sorted() []string {
	if len(s) == 0 {
		return nil
	}
	out := make([]string, 0, len(s))
	for p := range s {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}

// changes accumulates events into the sets a Batch is made of.
type changes struct {
	changed, created, removed, git set
	rescan                         bool
}

func (c *changes) empty() bool {
	return !c.rescan && len(c.changed) == 0 && len(c.created) == 0 && len(c.removed) == 0 && len(c.git) == 0
}

// size grows whenever something new is added.
func (c *changes) size() int {
	n := len(c.changed) + len(c.created) + len(c.removed) + len(c.git)
	if c.rescan {
		n++
	}
	return n
}

func (c *changes) appeared(p string) {
	c.created.add(p)
	c.changed.add(p)
}

func (c *changes) disappeared(p string) {
	c.removed.add(p)
	c.changed.add(p)
}

func (c *changes) merge(o *changes) {
	c.changed = c.changed.merge(o.changed)
	c.created = c.created.merge(o.created)
	c.removed = c.removed.merge(o.removed)
	c.git = c.git.merge(o.git)
	c.rescan = c.rescan || o.rescan
}

func (c *changes) batch() Batch {
	return Batch{
		Changed: c.changed.sorted(),
		Created: c.created.sorted(),
		Removed: c.removed.sorted(),
		Git:     c.git.sorted(),
		Rescan:  c.rescan,
	}
}

// batcher debounces changes: pending collects the current burst; when the burst ends it moves into ready,
// which is offered to the consumer until read. A slow consumer never blocks anything: later bursts merge
// into ready, so nothing is dropped. Owned by the run goroutine.
type batcher struct {
	debounce, maxDelay time.Duration
	timer              *time.Timer

	pending changes
	first   time.Time // of the pending burst

	ready      changes
	readyBatch Batch
	hasReady   bool
}

func newBatcher(debounce, maxDelay time.Duration) *batcher {
	t := time.NewTimer(time.Hour)
	t.Stop()
	return &batcher{debounce: debounce, maxDelay: maxDelay, timer: t}
}

// touched rearms the timer after changes were added to pending at now.
func (b *batcher) touched(now time.Time) {
	if b.pending.empty() {
		return
	}
	if b.first.IsZero() {
		b.first = now
	}
	b.timer.Reset(min(b.debounce, b.first.Add(b.maxDelay).Sub(now)))
}

// flush ends the pending burst (the timer fired).
func (b *batcher) flush() {
	b.first = time.Time{}
	if b.pending.empty() {
		return
	}
	b.ready.merge(&b.pending)
	b.pending = changes{}
	b.readyBatch = b.ready.batch()
	b.hasReady = true
}

// delivered forgets the batch the consumer just read.
func (b *batcher) delivered() {
	b.ready = changes{}
	b.readyBatch = Batch{}
	b.hasReady = false
}
