package gittools

import (
	"container/heap"
	"context"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// walker visits commits newest first by committer time, like `git log`: a priority queue ordered by committer
// date, ties in insertion order (git's commit_list_insert_by_date). Commits reachable from an "uninteresting"
// start (the a of a..b) are never returned.
type walker struct {
	rp      *repo
	queue   byCommitTime[queued]
	seq     int
	queued  map[plumbing.Hash]bool
	hidden  map[plumbing.Hash]bool           // uninteresting
	memo    map[plumbing.Hash]*object.Commit // parents read by simplify, reused when queued
	graph   *commitGraph                     // nil: decode every commit
	ranged  bool
	visited int
}

func newWalker(rp *repo) *walker {
	return &walker{rp: rp, queued: map[plumbing.Hash]bool{}, hidden: map[plumbing.Hash]bool{},
		memo: map[plumbing.Hash]*object.Commit{}}
}

// push queues c unless it already is; hide marks it (and so later its ancestors) uninteresting.
func (w *walker) push(c *object.Commit, hide bool) {
	if hide {
		w.hidden[c.Hash] = true
		w.ranged = true
	}
	if w.queued[c.Hash] {
		return
	}
	w.queued[c.Hash] = true
	heap.Push(&w.queue, queued{c: c, seq: w.seq})
	w.seq++
}

// pushHash reads and queues a commit by hash.
func (w *walker) pushHash(h plumbing.Hash, hide bool) error {
	if w.queued[h] {
		if hide {
			w.hidden[h] = true
			w.ranged = true
		}
		return nil
	}
	c, err := w.commit(h)
	if err != nil {
		return err
	}
	delete(w.memo, h)
	w.push(c, hide)
	return nil
}

// commit reads a commit, or takes it from the memo. With a commit graph the result may be partial: only
// Hash, TreeHash, ParentHashes and Committer.When are set (the log decodes only the commits it shows).
func (w *walker) commit(h plumbing.Hash) (*object.Commit, error) {
	if c, ok := w.memo[h]; ok {
		return c, nil
	}
	if w.graph != nil {
		if c, ok := w.graph.commit(h); ok {
			w.memo[h] = c
			return c, nil
		}
	}
	c, err := w.rp.git.CommitObject(h)
	if err == nil {
		w.memo[h] = c
	}
	return c, err
}

// next returns the next interesting commit, or nil at the end. Its parents are NOT queued: the caller
// decides which to follow (history simplification) and calls follow.
func (w *walker) next(ctx context.Context) (*object.Commit, error) {
	for w.queue.Len() > 0 {
		if w.visited++; w.visited%256 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		if w.ranged && w.allHidden() {
			return nil, nil
		}
		c := heap.Pop(&w.queue).(queued).c
		if w.hidden[c.Hash] {
			for _, p := range c.ParentHashes {
				if err := w.pushHash(p, true); err != nil {
					return nil, err
				}
			}
			continue
		}
		return c, nil
	}
	return nil, nil
}

// follow queues parents of an interesting commit.
func (w *walker) follow(parents ...plumbing.Hash) error {
	for _, p := range parents {
		if err := w.pushHash(p, false); err != nil {
			return err
		}
	}
	return nil
}

func (w *walker) allHidden() bool {
	for _, q := range w.queue {
		if !w.hidden[q.c.Hash] {
			return false
		}
	}
	return true
}

type queued struct {
	c   *object.Commit
	seq int
}

func (q queued) commitTime() (int64, int) { return q.c.Committer.When.Unix(), q.seq }

// byCommitTime is a max-heap (container/heap) on committer time, first in first out among equal times: the
// order in which git visits commits. It serves the log walker and blame.
type byCommitTime[T interface{ commitTime() (int64, int) }] []T

func (q byCommitTime[T]) Len() int { return len(q) }
func (q byCommitTime[T]) Less(i, j int) bool {
	ti, si := q[i].commitTime()
	tj, sj := q[j].commitTime()
	if ti != tj {
		return ti > tj
	}
	return si < sj
}
func (q byCommitTime[T]) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *byCommitTime[T]) Push(x any)   { *q = append(*q, x.(T)) }
func (q *byCommitTime[T]) Pop() any {
	old := *q
	x := old[len(old)-1]
	*q = old[:len(old)-1]
	return x
}
