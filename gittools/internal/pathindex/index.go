// Package pathindex is an in-memory changed-paths index of a repository's history: for every indexed commit
// and each of its parents, the paths whose tree entry differs between the two (files and directories, every
// level). With it a path-limited log decides whether a commit is TREESAME to a parent for a path with one
// lookup, instead of reading trees. It is built in the background, in chunks under the repository's lock,
// newest commits first; commits are immutable, so an entry never goes stale, and new commits are added by
// building again from the new tips.
//
//	x := pathindex.New(budget)
//	b := x.Builder(tips)            // then, repeatedly under rp's lock: done, err := b.Step(rp, 256)
//	id, ok := x.PathID("src/a.go")
//	changed, known := x.Changed(commit, 0, id, ok)
//
// # Memory
//
// An index counts its bytes (paths, commit entries, lists) against its [Budget]: at most MaxBytes per
// repository and the Budget's total across repositories. When either is reached the index stops growing;
// the commits it lacks are answered by reading trees, as without an index.
package pathindex

import (
	"slices"
	"sync"
	"sync/atomic"

	"github.com/go-git/go-git/v5/plumbing"
)

// Index is the changed-paths index of one repository. Its methods are safe for concurrent use.
type Index struct {
	budget *Budget

	mu      sync.RWMutex // guards all fields below
	ids     map[string]uint32
	commits map[plumbing.Hash]entry
	bytes   int64
	full    bool // a budget was reached: the index no longer grows
	dropped bool
}

// entry is one commit: per parent (for a root commit, against the empty tree) the sorted ids of the paths
// whose entry differs; a nil list means unknown (too many changes, or a parent that could not be read).
type entry struct {
	time    int64           // committer time (Unix seconds)
	parents []plumbing.Hash // as in the commit
	lists   [][]uint32
}

// Node is an indexed commit: what a path-limited walk needs to order it, follow its parents and decide
// whether it is TREESAME to each, without reading the commit or its trees.
type Node struct {
	Time    int64
	Parents []plumbing.Hash // shared with the index: don't modify
	lists   [][]uint32
}

// Lookup returns commit c's node.
func (x *Index) Lookup(c plumbing.Hash) (Node, bool) {
	x.mu.RLock()
	defer x.mu.RUnlock()
	e, ok := x.commits[c]
	return Node{Time: e.time, Parents: e.parents, lists: e.lists}, ok
}

// Changed is Index.Changed for this node: whether the path of id differs against parent i; known is false
// when the node's list for i is unknown.
func (n Node) Changed(i int, id uint32, interned bool) (changed, known bool) {
	if i >= len(n.lists) || n.lists[i] == nil {
		return false, false
	}
	if !interned {
		return false, true
	}
	_, found := slices.BinarySearch(n.lists[i], id)
	return found, true
}

// Budget is the memory shared by the indexes of a server's repositories.
type Budget struct {
	Total    int64 // all indexes together; 0 means DefaultTotal
	MaxBytes int64 // one index; 0 means DefaultMaxBytes
	used     atomic.Int64
}

const (
	// DefaultTotal bounds all indexes together.
	DefaultTotal = 128 << 20
	// DefaultMaxBytes bounds one repository's index: about 400,000 commits of a few changed paths each.
	DefaultMaxBytes = 64 << 20
)

// Used is the memory the indexes hold now.
func (b *Budget) Used() int64 { return b.used.Load() }

func (b *Budget) take(n, have int64) bool {
	total, one := b.Total, b.MaxBytes
	if total <= 0 {
		total = DefaultTotal
	}
	if one <= 0 {
		one = DefaultMaxBytes
	}
	if have+n > one {
		return false
	}
	if b.used.Add(n) > total {
		b.used.Add(-n)
		return false
	}
	return true
}

// New returns an empty index whose memory counts against budget.
func New(budget *Budget) *Index {
	return &Index{budget: budget, ids: map[string]uint32{}, commits: map[plumbing.Hash]entry{}}
}

// Drop empties the index and gives its memory back to the budget; it stays empty.
func (x *Index) Drop() {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.dropped {
		return
	}
	x.dropped = true
	x.budget.used.Add(-x.bytes)
	x.ids, x.commits, x.bytes = nil, nil, 0
}

// Bytes is the memory the index holds, as counted against its budget.
func (x *Index) Bytes() int64 {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return x.bytes
}

// Len is the number of indexed commits.
func (x *Index) Len() int {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return len(x.commits)
}

// Has reports whether commit c is indexed.
func (x *Index) Has(c plumbing.Hash) bool {
	x.mu.RLock()
	defer x.mu.RUnlock()
	_, ok := x.commits[c]
	return ok
}

// PathID returns the id of path p (slash-separated, relative to the worktree); false when no indexed
// commit changed p.
func (x *Index) PathID(p string) (uint32, bool) {
	x.mu.RLock()
	defer x.mu.RUnlock()
	id, ok := x.ids[p]
	return id, ok
}

// Changed reports whether the entry at the path of id (interned: PathID's ok) differs between commit c and
// its parent number parent (0 for a root commit: against the empty tree, so "the path exists"). known is
// false when the index cannot tell: c not indexed, or its list for that parent unknown.
func (x *Index) Changed(c plumbing.Hash, parent int, id uint32, interned bool) (changed, known bool) {
	x.mu.RLock()
	defer x.mu.RUnlock()
	e, ok := x.commits[c]
	if !ok {
		return false, false
	}
	return Node{lists: e.lists}.Changed(parent, id, interned)
}

// Per-item costs counted against the budget: a map entry with its key, a slice header, an id.
const (
	pathCost   = 48
	commitCost = 64
	listCost   = 24
	idCost     = 4
)

// add stores commit c (committed at time, with parents) with its per-parent changed paths (nil: unknown);
// false when a budget is reached.
func (x *Index) add(c plumbing.Hash, time int64, parents []plumbing.Hash, changed [][]string) bool {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.dropped || x.full {
		return false
	}
	if _, ok := x.commits[c]; ok {
		return true
	}
	cost := int64(commitCost + listCost*len(changed) + len(parents)*len(c))
	var fresh int64
	for _, list := range changed {
		cost += int64(idCost * len(list))
		for _, p := range list {
			if _, ok := x.ids[p]; !ok {
				fresh += int64(pathCost + len(p))
			}
		}
	}
	if !x.budget.take(cost+fresh, x.bytes) {
		x.full = true
		return false
	}
	x.bytes += cost + fresh
	e := entry{time: time, parents: slices.Clone(parents), lists: make([][]uint32, len(changed))}
	for i, list := range changed {
		if list == nil {
			continue
		}
		ids := make([]uint32, len(list))
		for j, p := range list {
			id, ok := x.ids[p]
			if !ok {
				id = uint32(len(x.ids))
				x.ids[p] = id
			}
			ids[j] = id
		}
		slices.Sort(ids)
		e.lists[i] = slices.Compact(ids)
	}
	x.commits[c] = e
	return true
}

// Full reports whether the index stopped growing at a budget.
func (x *Index) Full() bool {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return x.full || x.dropped
}
