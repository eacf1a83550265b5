package blame

import (
	"container/heap"
	"context"
	"errors"
	"slices"

	"github.com/grove-mcp/grove/gittools/internal/repo"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/grove-mcp/grove/gittools/internal/linediff"
)

// blamer attributes the lines of one file to the commits that last changed them, with the results
// `git blame` documents: each "origin" is a (commit, path) that is suspected of a set of lines; it passes
// to each parent the lines the parent already had and keeps the rest. Origins are processed newest commit
// first, so that all children have handed their lines to a commit before it is examined. Commits come from
// the commit-graph when there is one: the walk needs only parents, root tree and date.
type blamer struct {
	ctx     context.Context // checked per commit and per tree or file a rename search reads
	rp      *repo.Repo
	objects *blobReader
	graph   *repo.CommitGraph
	trees   *repo.TreeLookup
	origins map[originKey]*blameOrigin // the queued ones
	queue   repo.ByCommitTime[*blameOrigin]
	seq     int
	blobs   map[plumbing.Hash]linediff.Text // lines of the blobs of queued origins (see release)
	differ  linediff.Differ
	refs    map[plumbing.Hash]int // queued origins per blob
	owner   []plumbing.Hash       // the commit blamed for each tracked line, by suspect.final
}

type originKey struct {
	commit plumbing.Hash
	path   string
}

// blameOrigin is a version of the file (blob at path in commit) and the lines it is suspected of.
type blameOrigin struct {
	c        *object.Commit // possibly partial (commit-graph): Hash, TreeHash, ParentHashes, Committer.When
	path     string
	blob     plumbing.Hash
	suspects []suspect
	seq      int // queue order among equal commit times
}

// suspect is one line of the blamed file: its index among the tracked lines and its index in an origin's blob.
type suspect struct{ final, at int }

// blameRange returns the commit to blame for lines [lo, hi) (0-based) of blob at path in commit c.
func blameRange(rp *repo.Repo, ctx context.Context, objects *blobReader, c *object.Commit, path string, blob plumbing.Hash, lo, hi int) ([]plumbing.Hash, error) {
	b := &blamer{ctx: ctx, rp: rp, objects: objects, graph: rp.WalkGraph(), trees: repo.NewTreeLookup(rp),
		origins: map[originKey]*blameOrigin{}, blobs: map[plumbing.Hash]linediff.Text{},
		refs: map[plumbing.Hash]int{}, owner: make([]plumbing.Hash, hi-lo)}
	sus := make([]suspect, hi-lo)
	for i := range sus {
		sus[i] = suspect{final: i, at: lo + i}
	}
	b.give(c, path, blob, sus)
	for b.queue.Len() > 0 {
		if err := b.ctx.Err(); err != nil {
			return nil, err
		}
		o := heap.Pop(&b.queue).(*blameOrigin)
		delete(b.origins, originKey{o.c.Hash, o.path}) // a late child (clock skew) queues it afresh
		if err := b.pass(o); err != nil {
			return nil, err
		}
		b.refs[o.blob]--
		b.release(o.blob)
	}
	return b.owner, nil
}

// give adds suspects to the queued origin (c, path), creating and queueing it as needed.
func (b *blamer) give(c *object.Commit, path string, blob plumbing.Hash, sus []suspect) {
	if len(sus) == 0 {
		return
	}
	k := originKey{c.Hash, path}
	if o := b.origins[k]; o != nil {
		o.suspects = append(o.suspects, sus...)
		return
	}
	o := &blameOrigin{c: c, path: path, blob: blob, suspects: sus, seq: b.seq}
	b.origins[k] = o
	b.seq++
	b.refs[blob]++
	heap.Push(&b.queue, o)
}

// release drops the lines of a blob no queued origin holds.
func (b *blamer) release(h plumbing.Hash) {
	if b.refs[h] <= 0 {
		delete(b.refs, h)
		delete(b.blobs, h)
	}
}

// parentVersion is the file as a parent has it; c is nil when the parent is missing (shallow clone).
type parentVersion struct {
	c       *object.Commit
	path    string
	blob    plumbing.Hash
	found   bool
	renamed bool // found under another path
}

// pass hands o's suspects to its parents and blames o's commit for the rest.
func (b *blamer) pass(o *blameOrigin) error {
	sus := o.suspects
	o.suspects = nil
	slices.SortFunc(sus, func(x, y suspect) int { return x.at - y.at })
	ps, err := b.parentVersions(o)
	if err != nil {
		return err
	}
	for _, renamed := range []bool{false, true} {
		for _, p := range ps {
			if p.found && p.renamed == renamed && p.blob == o.blob {
				b.give(p.c, p.path, p.blob, sus) // TREESAME: the first such parent takes everything
				return nil
			}
		}
	}
	for i, p := range ps {
		if !p.found || slices.ContainsFunc(ps[:i], func(q parentVersion) bool { return q.found && q.blob == p.blob }) {
			continue
		}
		if sus, err = b.passToParent(o, p, sus); err != nil || len(sus) == 0 {
			return err
		}
	}
	for _, s := range sus {
		b.owner[s.final] = o.c.Hash
	}
	return nil
}

// passToParent gives p the suspects whose lines p already has and returns the others.
func (b *blamer) passToParent(o *blameOrigin, p parentVersion, sus []suspect) ([]suspect, error) {
	mine, err := b.lines(o.blob)
	if err != nil {
		return nil, err
	}
	theirs, err := b.lines(p.blob)
	if err != nil {
		return nil, err
	}
	keep, passed := splitSuspects(sus, b.differ.Diff(theirs, mine))
	b.give(p.c, p.path, p.blob, passed)
	b.release(p.blob)
	return keep, nil
}

// parentVersions finds the file in each parent of o: at the same path, else (git's whole-file rename
// following) under the path it had before an exact rename.
func (b *blamer) parentVersions(o *blameOrigin) ([]parentVersion, error) {
	ps := make([]parentVersion, len(o.c.ParentHashes))
	for i, h := range o.c.ParentHashes {
		pc, err := b.commit(h)
		if errors.Is(err, plumbing.ErrObjectNotFound) {
			continue // shallow clone boundary: o keeps what it has
		}
		if err != nil {
			return nil, err
		}
		ps[i].c, ps[i].path = pc, o.path
		if pc.TreeHash == o.c.TreeHash {
			ps[i].blob, ps[i].found = o.blob, true // an empty commit: no lookup
			continue
		}
		if ps[i].blob, ps[i].found, err = b.blobAt(pc.TreeHash, o.path); err != nil {
			return nil, err
		}
	}
	for i := range ps {
		if ps[i].c == nil || ps[i].found {
			continue
		}
		from, blob, err := b.renamedFrom(ps[i].c, o)
		if err != nil {
			return nil, err
		}
		if from != "" {
			ps[i].path, ps[i].blob, ps[i].found, ps[i].renamed = from, blob, true, true
		}
	}
	return ps, nil
}

// blobAt returns the blob at path in a tree; found is false for a missing path, a directory or a submodule.
func (b *blamer) blobAt(tree plumbing.Hash, path string) (plumbing.Hash, bool, error) {
	e, err := b.trees.Find(tree, path)
	if err != nil || !e.Found || !e.Mode.IsFile() {
		return plumbing.ZeroHash, false, err
	}
	return e.Hash, true, nil
}

// commit reads a commit for the walk: from the commit-graph or cache when possible, else decoded.
func (b *blamer) commit(h plumbing.Hash) (*object.Commit, error) {
	if c, ok := b.graph.Commit(h); ok {
		return c, nil
	}
	return b.rp.Git.CommitObject(h)
}

func (o *blameOrigin) CommitTime() (int64, int) { return o.c.Committer.When.Unix(), o.seq }
