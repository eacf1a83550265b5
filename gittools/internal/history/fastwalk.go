package history

import (
	"container/heap"
	"context"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/grove-mcp/grove/gittools/internal/pathindex"
	"github.com/grove-mcp/grove/gittools/internal/repo"
)

// pathItem is a commit queued by pathLog: an indexed node, or a commit read from the graph or the store.
type pathItem struct {
	hash    plumbing.Hash
	time    int64
	seq     int
	node    pathindex.Node
	indexed bool
	commit  *object.Commit // when not indexed
}

func (i pathItem) CommitTime() (int64, int) { return i.time, i.seq }

// pathLog is Log for a path without a range, on the changed-paths index: the same walk (committer time
// order, ties first in first out, git's default simplification, the same scan bound), where an indexed
// commit costs a map lookup and reads nothing, and the commits the index lacks (or cannot answer for) are
// read and decided by pw as in the plain walk.
func pathLog(rp *repo.Repo, ctx context.Context, q Query, pw *pathWalk, start plumbing.Hash) (LogOut, error) {
	out := LogOut{Commits: []repo.CommitInfo{}}
	w := pw.source // the commits the index lacks
	x := pw.index
	var queue repo.ByCommitTime[pathItem]
	queued := make(map[plumbing.Hash]bool, 1024)
	push := func(h plumbing.Hash) error {
		if queued[h] {
			return nil
		}
		it := pathItem{hash: h, seq: len(queued)}
		if x != nil {
			it.node, it.indexed = x.Lookup(h)
		}
		if it.indexed {
			it.time = it.node.Time
		} else {
			c, err := w.Commit(h)
			if err != nil {
				return err
			}
			it.commit, it.time = c, c.Committer.When.Unix()
		}
		queued[h] = true
		heap.Push(&queue, it)
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
		it := heap.Pop(&queue).(pathItem)
		if !q.since.IsZero() && time.Unix(it.time, 0).Before(q.since) {
			continue // like git: older than --since, and its parents are not walked
		}
		show, parents, err := pw.decide(w, it)
		if err != nil {
			return out, err
		}
		if show {
			if done, err := q.add(&out, rp, &object.Commit{Hash: it.hash}); done || err != nil {
				return out, err
			}
		}
		for _, p := range parents {
			if err := push(p); err != nil {
				return out, err
			}
		}
	}
	return out, nil
}

// decide simplifies one queued commit: from its index node when that knows, else from its trees.
func (pw *pathWalk) decide(w *commitSource, it pathItem) (bool, []plumbing.Hash, error) {
	if it.indexed {
		if show, parents, known := simplifyNode(it.node, pw.id, pw.interned); known {
			return show, parents, nil
		}
		c, err := w.Commit(it.hash)
		if err != nil {
			return false, nil, err
		}
		it.commit = c
	}
	return pw.simplify(w, it.commit)
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
