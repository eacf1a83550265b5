package pathindex

import (
	"slices"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/grove-mcp/grove/gittools/internal/repo"
)

// Builder adds the commits reachable from some tips to an index, a few at a time: each Step runs under the
// repository's lock (go-git is not thread-safe) and returns, so tool calls get the lock between steps.
type Builder struct {
	x       *Index
	pending []plumbing.Hash
	seen    map[plumbing.Hash]bool
	visited int
	trees   treeCache
}

// MaxCommits bounds one build: the commits a Builder visits.
var MaxCommits = 2_000_000

// maxChanged bounds the paths recorded for one commit and parent: past it (a large import or a merge of a
// long branch) the list is unknown, and a query reads that commit's trees instead.
const maxChanged = 4096

// Builder returns a builder that indexes the commits reachable from tips, skipping those already indexed.
func (x *Index) Builder(tips ...plumbing.Hash) *Builder {
	return &Builder{x: x, pending: slices.Clone(tips), seen: map[plumbing.Hash]bool{}, trees: treeCache{}}
}

// Step indexes up to n more commits, reading them from rp; caller holds rp's lock. done reports that nothing is
// left: every reachable commit is indexed, a bound or budget was reached, or the index was dropped.
func (b *Builder) Step(rp *repo.Repo, n int) (done bool, err error) {
	g := rp.WalkGraph()
	for range n {
		if len(b.pending) == 0 || b.visited >= MaxCommits || b.x.Full() {
			return true, nil
		}
		h := b.pending[0]
		b.pending = b.pending[1:]
		if b.seen[h] {
			continue
		}
		b.seen[h] = true
		b.visited++
		if b.x.Has(h) {
			continue // and so are its ancestors: an earlier build added them, or the index stopped growing
		}
		c, ok := g.Commit(h)
		if !ok {
			continue // missing (a shallow boundary): queries read trees there
		}
		if !b.x.add(h, c.Committer.When.Unix(), c.ParentHashes, b.changedLists(rp, g, c.TreeHash, c.ParentHashes)) {
			return true, nil
		}
		b.pending = append(b.pending, c.ParentHashes...)
	}
	return len(b.pending) == 0, nil
}

// changedLists diffs tree against each parent's tree (the empty tree for a root commit).
func (b *Builder) changedLists(rp *repo.Repo, g *repo.CommitGraph, tree plumbing.Hash, parents []plumbing.Hash) [][]string {
	if len(parents) == 0 {
		return [][]string{b.diffList(rp, plumbing.ZeroHash, tree)}
	}
	out := make([][]string, len(parents))
	for i, ph := range parents {
		pc, ok := g.Commit(ph)
		if !ok {
			continue // unknown
		}
		out[i] = b.diffList(rp, pc.TreeHash, tree)
	}
	return out
}

// diffList lists the paths whose entries differ between trees a and b (zero: empty), or nil when it cannot
// (more than maxChanged paths, an unreadable tree).
func (b *Builder) diffList(rp *repo.Repo, ta, tb plumbing.Hash) []string {
	d := differ{rp: rp, cache: b.trees, out: []string{}}
	if err := d.trees(ta, tb, ""); err != nil {
		return nil
	}
	return d.out
}
