package history

import (
	"context"
	"errors"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/grove-mcp/grove/gittools/internal/pathindex"
	"github.com/grove-mcp/grove/gittools/internal/repo"
)

// pathItem is a commit queued by pathLog: a position in the commit-graph, an indexed node, or a commit read
// from the store.
type pathItem struct {
	hash    plumbing.Hash
	time    int64
	seq     int
	pos     uint32        // with inGraph
	tree    plumbing.Hash // with inGraph
	inGraph bool
	parents []uint32 // graph positions, with inGraph
	node    pathindex.Node
	indexed bool
	commit  *object.Commit // when neither in the graph nor indexed
}

func (i pathItem) CommitTime() (int64, int) { return i.time, i.seq }

// pathLog is Log for a path without a range: the same walk (committer time order, ties first in first out,
// git's default simplification, the same scan bound), where a commit in the commit-graph is addressed by
// its position (no hashing, no decoding), an indexed commit is decided by the changed-paths index and a
// commit the Bloom filter clears by its filter; only the others are read and decided from their trees.
func pathLog(rp *repo.Repo, ctx context.Context, q Query, pw *pathWalk, start plumbing.Hash) (LogOut, error) {
	out := LogOut{Commits: []repo.CommitInfo{}}
	g := pw.source.g
	var queue repo.ByCommitTime[pathItem]
	queued := map[plumbing.Hash]bool{} // commits outside the graph
	var queuedPos []bool               // by graph position
	if g != nil {
		queuedPos = make([]bool, g.Len())
	}
	seq := 0
	enqueue := func(it pathItem) {
		it.seq = seq
		seq++
		if it.indexed {
			it.time = it.node.Time
		}
		queue.Put(it)
	}
	pushPos := func(pos uint32) bool {
		if queuedPos[pos] {
			return true
		}
		d, ok := g.Commit(pos)
		h, _ := g.Hash(pos)
		if !ok {
			return false
		}
		queuedPos[pos] = true
		it := pathItem{hash: h, time: d.Time, pos: pos, tree: d.Tree, inGraph: true, parents: d.Parents}
		if pw.index != nil {
			it.node, it.indexed = pw.index.Lookup(h)
		}
		enqueue(it)
		return true
	}
	push := func(h plumbing.Hash) error {
		if queued[h] {
			return nil
		}
		if pos, ok := g.Find(h); ok && pushPos(pos) {
			return nil
		}
		it := pathItem{hash: h}
		if pw.index != nil {
			it.node, it.indexed = pw.index.Lookup(h)
		}
		if !it.indexed {
			c, err := pw.source.Commit(h)
			if err != nil {
				return err
			}
			it.commit, it.time = c, c.Committer.When.Unix()
		}
		queued[h] = true
		enqueue(it)
		return nil
	}
	if err := push(start); err != nil {
		return out, err
	}
	for n := 0; queue.Len() > 0; n++ {
		if q.Progress != nil && n > 0 && n%progressEveryCommits == 0 {
			q.Progress(n)
		}
		if n%256 == 255 {
			if err := ctx.Err(); err != nil {
				return out, err
			}
		}
		if n == MaxScan {
			out.Scanned, out.Resume = n, queue[0].hash.String()
			return out, nil
		}
		it := queue.Take()
		if !q.since.IsZero() && time.Unix(it.time, 0).Before(q.since) {
			continue // like git: older than --since, and its parents are not walked
		}
		show, follow, err := pw.decide(it)
		if err != nil {
			return out, err
		}
		if show {
			if done, err := q.add(&out, rp, &object.Commit{Hash: it.hash}); done || err != nil {
				return out, err
			}
		}
		if it.inGraph && follow.all {
			for _, p := range it.parents {
				if !pushPos(p) {
					return out, errBadGraph
				}
			}
			continue
		}
		if it.inGraph && follow.first {
			if !pushPos(it.parents[0]) {
				return out, errBadGraph
			}
			continue
		}
		for _, p := range follow.hashes {
			if err := push(p); err != nil {
				return out, err
			}
		}
	}
	return out, nil
}

var errBadGraph = errors.New("commit-graph: a parent outside the graph")

// following is which parents a decided commit continues to: all, the first, or the hashes listed.
type following struct {
	all, first bool
	hashes     []plumbing.Hash
}

// decide simplifies one queued commit: from its index node when that knows, then from its Bloom filter,
// then from its trees.
func (pw *pathWalk) decide(it pathItem) (bool, following, error) {
	if it.indexed {
		if show, parents, known := simplifyNode(it.node, pw.id, pw.interned); known {
			if it.inGraph && len(parents) == len(it.parents) && len(parents) > 0 {
				return show, following{all: true}, nil
			}
			if it.inGraph && len(parents) == 1 && parents[0] == it.node.Parents[0] && len(it.parents) > 0 {
				return show, following{first: true}, nil
			}
			return show, following{hashes: parents}, nil
		}
	}
	if it.inGraph && len(it.parents) > 0 && pw.graph != nil && !pw.graph.MaybeChanged(it.pos, pw.keys) {
		return false, following{first: true}, nil // TREESAME to the first parent, which git's filters are against
	}
	if it.inGraph && len(it.parents) == 1 && pw.index == nil {
		if pd, ok := pw.source.g.Commit(it.parents[0]); ok {
			return pw.decideLinear(it.tree, pd.Tree)
		}
	}
	c := it.commit
	if c == nil {
		var err error
		if c, err = pw.source.Commit(it.hash); err != nil {
			return false, following{}, err
		}
	}
	show, parents, err := pw.simplify(pw.source, c)
	return show, following{hashes: parents}, err
}

// decideLinear is simplify for a commit of the graph with one parent (and no index to ask, and a Bloom
// filter, if any, already asked), from the two root trees the graph gives: no commit objects and no hash
// lookups, which were most of a first path log's cost outside the trees. TREESAME to the parent hides the
// commit; either way the walk follows the parent.
func (pw *pathWalk) decideLinear(tree, parentTree plumbing.Hash) (bool, following, error) {
	if tree == parentTree {
		return false, following{first: true}, nil
	}
	me, err := pw.lookup.Find(tree, pw.path)
	if err != nil {
		return false, following{}, err
	}
	pe, err := pw.lookup.Find(parentTree, pw.path)
	if err != nil {
		return false, following{}, err
	}
	return pe != me, following{first: true}, nil
}

// simplifyNode is pathWalk.simplify on an indexed commit; known is false when the index lacks an answer.
func simplifyNode(n pathindex.Node, id uint32, interned bool) (show bool, parents []plumbing.Hash, known bool) {
	if len(n.Parents) == 0 {
		show, known = n.Changed(0, id, interned)
		return show, nil, known
	}
	for i, ph := range n.Parents {
		changed, known := n.Changed(i, id, interned)
		if !known {
			return false, nil, false
		}
		if !changed {
			return false, []plumbing.Hash{ph}, true
		}
	}
	return true, n.Parents, true
}
