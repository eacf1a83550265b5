package merge

// Merge bases: the best common ancestors of two commits, that is the common ancestors that are not
// ancestors of another common ancestor (git-merge-base(1)). A criss-cross history has several.

import (
	"container/heap"
	"context"
	"errors"
	"slices"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// MaxWalk bounds the commits one merge-base search reads.
var MaxWalk = 5_000_000

// ErrWalkTooLong is returned when the histories are too large to search within MaxWalk commits.
var ErrWalkTooLong = errors.New("merge base search read too many commits")

const (
	fromOne uint8 = 1 << iota
	fromTwo
	stale
)

type walkItem struct {
	c     *object.Commit
	flags uint8 // at push time
}

type commitQueue []walkItem

func (q commitQueue) Len() int { return len(q) }
func (q commitQueue) Less(i, j int) bool {
	return q[i].c.Committer.When.After(q[j].c.Committer.When)
}
func (q commitQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *commitQueue) Push(x any)   { *q = append(*q, x.(walkItem)) }
func (q *commitQueue) Pop() any {
	old := *q
	x := old[len(old)-1]
	*q = old[:len(old)-1]
	return x
}

// walker paints commits with the sides that reach them, newest first.
type walker struct {
	s       *Store
	ctx     context.Context
	flags   map[plumbing.Hash]uint8
	q       commitQueue
	live    int // queued items pushed without the stale flag
	visited int
	commits map[plumbing.Hash]*object.Commit
}

func (s *Store) newWalker(ctx context.Context) *walker {
	return &walker{s: s, ctx: ctx, flags: map[plumbing.Hash]uint8{}, commits: map[plumbing.Hash]*object.Commit{}}
}

func (w *walker) commit(h plumbing.Hash) (*object.Commit, error) {
	if c, ok := w.commits[h]; ok {
		return c, nil
	}
	w.visited++
	if w.visited > MaxWalk {
		return nil, ErrWalkTooLong
	}
	if w.visited%1024 == 0 {
		if err := w.ctx.Err(); err != nil {
			return nil, err
		}
	}
	c, err := w.s.Commit(h)
	if err != nil {
		return nil, err
	}
	w.commits[h] = c
	return c, nil
}

func (w *walker) push(h plumbing.Hash, f uint8) error {
	if w.flags[h]&f == f {
		return nil
	}
	c, err := w.commit(h)
	if err != nil {
		return err
	}
	w.flags[h] |= f
	f = w.flags[h]
	heap.Push(&w.q, walkItem{c: c, flags: f})
	if f&stale == 0 {
		w.live++
	}
	return nil
}

// Bases returns the merge bases of the commits one and two stand for, newest first: a commit stands for the
// union of its ancestors, a list for the union of theirs (a virtual merge commit is the list of its parents).
func (s *Store) Bases(ctx context.Context, one, two []plumbing.Hash) ([]plumbing.Hash, error) {
	w := s.newWalker(ctx)
	for _, h := range one {
		if err := w.push(h, fromOne); err != nil {
			return nil, err
		}
	}
	for _, h := range two {
		if err := w.push(h, fromTwo); err != nil {
			return nil, err
		}
	}
	var found []*object.Commit
	for w.live > 0 {
		it := heap.Pop(&w.q).(walkItem)
		if it.flags&stale == 0 {
			w.live--
		}
		f := w.flags[it.c.Hash]
		if f&(fromOne|fromTwo) == fromOne|fromTwo {
			if f&stale == 0 && !slices.ContainsFunc(found, func(c *object.Commit) bool { return c.Hash == it.c.Hash }) {
				found = append(found, it.c)
			}
			f |= stale
			w.flags[it.c.Hash] = f
		}
		for _, p := range it.c.ParentHashes {
			if err := w.push(p, f); err != nil {
				return nil, err
			}
		}
	}
	return w.best(found)
}

// best drops the candidates that are ancestors of another candidate.
func (w *walker) best(found []*object.Commit) ([]plumbing.Hash, error) {
	var out []plumbing.Hash
	for i, c := range found {
		redundant := false
		for j, d := range found {
			if i == j {
				continue
			}
			anc, err := w.reaches(d, c)
			if err != nil {
				return nil, err
			}
			if anc {
				redundant = true
				break
			}
		}
		if !redundant {
			out = append(out, c.Hash)
		}
	}
	return out, nil
}

// reaches reports whether c is an ancestor of from, walking no further back than commits older than c.
func (w *walker) reaches(from, c *object.Commit) (bool, error) {
	seen := map[plumbing.Hash]bool{from.Hash: true}
	todo := []*object.Commit{from}
	for len(todo) > 0 {
		x := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		for _, p := range x.ParentHashes {
			if p == c.Hash {
				return true, nil
			}
			if seen[p] {
				continue
			}
			seen[p] = true
			pc, err := w.commit(p)
			if err != nil {
				return false, err
			}
			if !pc.Committer.When.Before(c.Committer.When) {
				todo = append(todo, pc)
			}
		}
	}
	return false, nil
}
