package history

import (
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/grove-mcp/grove/gittools/internal/commitgraph"
	"github.com/grove-mcp/grove/gittools/internal/repo"
)

// commitSource gives a path walk the commits it needs (tree, parents, time) from grove's own commit-graph
// reader, which costs a binary search and no decoding, and from the walker's sources for commits the graph
// lacks. Commits from the graph are partial, as the walker's are.
type commitSource struct {
	g    *commitgraph.Graph // nil: none
	rp   *repo.Repo
	w    *repo.Walker // see walker
	memo map[plumbing.Hash]graphCommit
}

// graphCommit is a commit read by commitSource, with its graph position (for its Bloom filter).
type graphCommit struct {
	c     *object.Commit
	pos   uint32
	inPos bool
}

func newCommitSource(rp *repo.Repo, g *commitgraph.Graph) *commitSource {
	n := 1024
	if g != nil {
		n = min(max(n, int(g.Len())), 1<<16) // a walk reads most of the graph's commits: no growing on the way
	}
	return &commitSource{g: g, rp: rp, memo: make(map[plumbing.Hash]graphCommit, n)}
}

// walker is the fallback for commits the graph lacks, made on first use: its go-git commit-graph index
// costs a read and parse of the graph file that a walk the graph covers never needs.
func (s *commitSource) walker() *repo.Walker {
	if s.w == nil {
		s.w = repo.NewWalker(s.rp)
		s.w.Graph = s.rp.WalkGraph()
	}
	return s.w
}

// Commit returns commit h.
func (s *commitSource) Commit(h plumbing.Hash) (*object.Commit, error) {
	gc, err := s.get(h)
	return gc.c, err
}

func (s *commitSource) get(h plumbing.Hash) (graphCommit, error) {
	if gc, ok := s.memo[h]; ok {
		return gc, nil
	}
	if pos, ok := s.g.Find(h); ok {
		if d, ok := s.g.Commit(pos); ok {
			c := &object.Commit{Hash: h, TreeHash: d.Tree, Committer: object.Signature{When: time.Unix(d.Time, 0)}}
			c.ParentHashes = make([]plumbing.Hash, 0, len(d.Parents))
			for _, p := range d.Parents {
				ph, _ := s.g.Hash(p) // in range: Commit checked the positions
				c.ParentHashes = append(c.ParentHashes, ph)
			}
			gc := graphCommit{c: c, pos: pos, inPos: true}
			s.memo[h] = gc
			return gc, nil
		}
	}
	c, err := s.walker().Commit(h)
	if err != nil {
		return graphCommit{}, err
	}
	gc := graphCommit{c: c}
	s.memo[h] = gc
	return gc, nil
}
