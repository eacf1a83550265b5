package repo

import (
	"container/heap"
	"context"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// Walker visits commits newest first by committer time, like `git log`: a priority queue ordered by committer
// date, ties in insertion order (git's commit_list_insert_by_date). Commits reachable from an "uninteresting"
// Start (the a of a..b) are never returned.
type Walker struct {
	rp      *Repo
	Queue   ByCommitTime[queued]
	seq     int
	queued  map[plumbing.Hash]bool
	hidden  map[plumbing.Hash]bool           // uninteresting
	memo    map[plumbing.Hash]*object.Commit // parents read by simplify, reused when queued
	Graph   *CommitGraph                     // nil: decode every commit
	ranged  bool
	visited int
}

func NewWalker(rp *Repo) *Walker {
	return &Walker{rp: rp, queued: map[plumbing.Hash]bool{}, hidden: map[plumbing.Hash]bool{},
		memo: map[plumbing.Hash]*object.Commit{}}
}

// Push queues c unless it already is; hide marks it (and so later its ancestors) uninteresting.
func (w *Walker) Push(c *object.Commit, hide bool) {
	if hide {
		w.hidden[c.Hash] = true
		w.ranged = true
	}
	if w.queued[c.Hash] {
		return
	}
	w.queued[c.Hash] = true
	heap.Push(&w.Queue, queued{C: c, seq: w.seq})
	w.seq++
}

// PushHash reads and queues a commit by hash.
func (w *Walker) PushHash(h plumbing.Hash, hide bool) error {
	if w.queued[h] {
		if hide {
			w.hidden[h] = true
			w.ranged = true
		}
		return nil
	}
	c, err := w.Commit(h)
	if err != nil {
		return err
	}
	delete(w.memo, h)
	w.Push(c, hide)
	return nil
}

// Commit reads a commit, or takes it from the memo. With a commit graph the result may be partial: only
// Hash, TreeHash, ParentHashes and Committer.When are set (the log decodes only the commits it shows).
func (w *Walker) Commit(h plumbing.Hash) (*object.Commit, error) {
	if c, ok := w.memo[h]; ok {
		return c, nil
	}
	if w.Graph != nil {
		if c, ok := w.Graph.Commit(h); ok {
			w.memo[h] = c
			return c, nil
		}
	}
	c, err := w.rp.Git.CommitObject(h)
	if err == nil {
		w.memo[h] = c
	}
	return c, err
}

// Next returns the next interesting commit, or nil at the end. Its parents are NOT queued: the caller
// decides which to follow (history simplification) and calls follow.
func (w *Walker) Next(ctx context.Context) (*object.Commit, error) {
	for w.Queue.Len() > 0 {
		if w.visited++; w.visited%256 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		if w.ranged && w.allHidden() {
			return nil, nil
		}
		c := heap.Pop(&w.Queue).(queued).C
		if w.hidden[c.Hash] {
			for _, p := range c.ParentHashes {
				if err := w.PushHash(p, true); err != nil {
					return nil, err
				}
			}
			continue
		}
		return c, nil
	}
	return nil, nil
}

// Follow queues parents of an interesting commit.
func (w *Walker) Follow(parents ...plumbing.Hash) error {
	for _, p := range parents {
		if err := w.PushHash(p, false); err != nil {
			return err
		}
	}
	return nil
}

func (w *Walker) allHidden() bool {
	for _, q := range w.Queue {
		if !w.hidden[q.C.Hash] {
			return false
		}
	}
	return true
}

type queued struct {
	C   *object.Commit
	seq int
}

func (q queued) CommitTime() (int64, int) { return q.C.Committer.When.Unix(), q.seq }

// ByCommitTime is a max-heap (container/heap) on committer time, first in first out among equal times: the
// order in which git visits commits. It serves the log walker and blame.
type ByCommitTime[T interface{ CommitTime() (int64, int) }] []T

func (q ByCommitTime[T]) Len() int { return len(q) }
func (q ByCommitTime[T]) Less(i, j int) bool {
	ti, si := q[i].CommitTime()
	tj, sj := q[j].CommitTime()
	if ti != tj {
		return ti > tj
	}
	return si < sj
}
func (q ByCommitTime[T]) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *ByCommitTime[T]) Push(x any)   { *q = append(*q, x.(T)) }
func (q *ByCommitTime[T]) Pop() any {
	old := *q
	x := old[len(old)-1]
	*q = old[:len(old)-1]
	return x
}

// Put adds x, as heap.Push does, without boxing x in an interface (a path walk pushes tens of thousands of
// items, and each box was an allocation).
func (q *ByCommitTime[T]) Put(x T) {
	*q = append(*q, x)
	h := *q
	for j := len(h) - 1; j > 0; {
		i := (j - 1) / 2
		if !h.Less(j, i) {
			break
		}
		h.Swap(i, j)
		j = i
	}
}

// Take removes and returns the first item (the latest commit time), as heap.Pop does. The queue must not
// be empty.
func (q *ByCommitTime[T]) Take() T {
	h := *q
	n := len(h) - 1
	h.Swap(0, n)
	for i := 0; ; {
		j := 2*i + 1
		if j >= n {
			break
		}
		if r := j + 1; r < n && h.Less(r, j) {
			j = r
		}
		if !h.Less(j, i) {
			break
		}
		h.Swap(i, j)
		i = j
	}
	x := h[n]
	var zero T
	h[n] = zero
	*q = h[:n]
	return x
}
