package history

import (
	"errors"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/grove-mcp/grove/gittools/internal/commitgraph"
	"github.com/grove-mcp/grove/gittools/internal/pathindex"
	"github.com/grove-mcp/grove/gittools/internal/repo"
)

// pathWalk answers "is this commit TREESAME to that parent for the path" from the cheapest source that
// knows: the changed-paths index, then the commit-graph's Bloom filter (first parent only, as git computes
// them), then the trees themselves.
type pathWalk struct {
	path     string
	lookup   *repo.TreeLookup
	index    *pathindex.Index // nil: none yet
	id       uint32
	interned bool
	graph    *commitgraph.Graph // nil, or without filters: no Bloom answers
	keys     *commitgraph.Keys
	source   *commitSource
}

func newPathWalk(rp *repo.Repo, c *Cache, path string) *pathWalk {
	pw := &pathWalk{path: path, lookup: repo.NewTreeLookup(rp), index: c.Index(rp)}
	if pw.index != nil {
		pw.id, pw.interned = pw.index.PathID(path)
	}
	g := c.Graph(rp)
	if g.HasFilters() {
		pw.graph, pw.keys = g, commitgraph.NewKeys(path)
	}
	pw.source = newCommitSource(rp, g)
	return pw
}

// simplify applies git's default history simplification for one path: a commit is shown unless it is
// TREESAME (same entry at the path) to a parent; when it is, only the first such parent is followed.
// A root commit is shown when the path exists in it.
func (pw *pathWalk) simplify(w commits, c *object.Commit) (bool, []plumbing.Hash, error) {
	if len(c.ParentHashes) == 0 {
		if changed, known := pw.changed(c.Hash, 0); known {
			return changed, nil, nil
		}
		me, err := pw.lookup.Find(c.TreeHash, pw.path)
		return me.Found, nil, err
	}
	var me repo.TreeHit // the path's entry in c's tree, read once when needed
	haveMe := false
	for i, ph := range c.ParentHashes {
		pc, err := w.Commit(ph)
		if errors.Is(err, plumbing.ErrObjectNotFound) {
			continue // shallow clone boundary
		}
		if err != nil {
			return false, nil, err
		}
		if pc.TreeHash == c.TreeHash {
			return false, []plumbing.Hash{ph}, nil // same root tree: TREESAME without a lookup
		}
		if changed, known := pw.changed(c.Hash, i); known {
			if !changed {
				return false, []plumbing.Hash{ph}, nil
			}
			continue
		}
		if i == 0 && !pw.bloomMaybe(w, c.Hash) {
			return false, []plumbing.Hash{ph}, nil
		}
		if !haveMe {
			hit, err := pw.lookup.Find(c.TreeHash, pw.path)
			if err != nil {
				return false, nil, err
			}
			me, haveMe = hit, true
		}
		pe, err := pw.lookup.Find(pc.TreeHash, pw.path)
		if err != nil {
			return false, nil, err
		}
		if pe == me {
			return false, []plumbing.Hash{ph}, nil
		}
	}
	return true, c.ParentHashes, nil
}

// changed asks the index whether the path's entry differs between c and its parent i.
func (pw *pathWalk) changed(c plumbing.Hash, i int) (changed, known bool) {
	if pw.index == nil {
		return false, false
	}
	return pw.index.Changed(c, i, pw.id, pw.interned)
}

// bloomMaybe asks c's Bloom filter whether the path may differ from c's first parent.
func (pw *pathWalk) bloomMaybe(w commits, c plumbing.Hash) bool {
	if pw.graph == nil {
		return true
	}
	if s, ok := w.(*commitSource); ok {
		if gc, err := s.get(c); err == nil && gc.inPos {
			return pw.graph.MaybeChanged(gc.pos, pw.keys)
		}
	}
	pos, ok := pw.graph.Find(c)
	return !ok || pw.graph.MaybeChanged(pos, pw.keys)
}

// commits is where simplify reads parents: the walker, or a path walk's commitSource.
type commits interface {
	Commit(plumbing.Hash) (*object.Commit, error)
}
