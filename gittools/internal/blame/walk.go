package blame

import (
	"context"
	"errors"
	"slices"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/grove-mcp/grove/gittools/internal/commitgraph"
	"github.com/grove-mcp/grove/gittools/internal/repo"
	"github.com/grove-mcp/grove/internal/linediff"
)

// blamer attributes the lines of one file to the commits that last changed them, with the results
// `git blame` documents: each "origin" is a (commit, path) that is suspected of a set of lines; it passes
// to each parent the lines the parent already had and keeps the rest. Origins are processed newest commit
// first, so that all children have handed their lines to a commit before it is examined.
type blamer struct {
	ctx     context.Context // checked per commit and per tree or file a rename search reads
	rp      *repo.Repo
	objects *blobReader
	commits *commitSource
	trees   *repo.TreeLookup
	opts    Options
	keys    map[string]*pathKeys // per path: its components, Bloom keys and index id
	origins map[originKey]*blameOrigin
	queue   repo.ByCommitTime[*blameOrigin]
	seq     int
	blobs   map[plumbing.Hash]linediff.Text // lines of the blobs of queued origins (see release)
	differ  linediff.Differ
	refs    map[plumbing.Hash]int // queued origins per blob
	pre     *prefetcher           // nil: none
	owner   []Owner               // what each tracked line is blamed on, by suspect.final
}

// Owner is what a line is blamed on: a commit, and the line's path and number (1-based) there.
type Owner struct {
	Commit plumbing.Hash
	Path   string
	Line   int
}

type originKey struct {
	commit plumbing.Hash
	path   string
}

// blameOrigin is a version of the file (blob at path in commit) and the lines it is suspected of.
type blameOrigin struct {
	c        *node
	path     string
	blob     plumbing.Hash
	chain    []plumbing.Hash // the trees down to path in c (see paths.go); nil when not known
	suspects []suspect
	merged   bool // suspects came from more than one child: not sorted by at
	seq      int  // queue order among equal commit times
}

// suspect is one line of the blamed file: its index among the tracked lines and its index in an origin's
// blob. An origin's suspects are sorted by at, as splitSuspects needs them, unless merged from two children.
type suspect struct{ final, at int }

// pathKeys is what the walk asks about one path.
type pathKeys struct {
	names    []string
	bloom    *commitgraph.Keys
	id       uint32
	interned bool
}

// blameRange returns what lines [lo, hi) (0-based) of blob at path in commit c are blamed on.
func blameRange(rp *repo.Repo, ctx context.Context, opts Options, objects *blobReader, c plumbing.Hash, path string, blob plumbing.Hash, lo, hi int) ([]Owner, error) {
	b := &blamer{ctx: ctx, rp: rp, objects: objects, commits: newCommitSource(rp, opts.Graph), trees: repo.NewTreeLookup(rp),
		opts: opts, keys: map[string]*pathKeys{}, origins: map[originKey]*blameOrigin{},
		blobs: map[plumbing.Hash]linediff.Text{}, refs: map[plumbing.Hash]int{}, owner: make([]Owner, hi-lo)}
	start, err := b.commits.get(c)
	if err != nil {
		return nil, err
	}
	sus := make([]suspect, hi-lo)
	for i := range sus {
		sus[i] = suspect{final: i, at: lo + i}
	}
	b.give(start, path, blob, nil, sus)
	if !opts.Graph.HasFilters() && opts.Index == nil {
		b.pre = startPrefetch(ctx, rp, opts.Graph, start, path, blob)
		defer b.pre.close()
	}
	for b.queue.Len() > 0 {
		if err := b.ctx.Err(); err != nil {
			return nil, err
		}
		o := b.queue.Take()
		delete(b.origins, originKey{o.c.hash, o.path}) // a late child (clock skew) queues it afresh
		if err := b.pass(o); err != nil {
			return nil, err
		}
		b.refs[o.blob]--
		b.release(o.blob)
	}
	return b.owner, nil
}

// give adds suspects to the queued origin (c, path), creating and queueing it as needed.
func (b *blamer) give(c *node, path string, blob plumbing.Hash, chain []plumbing.Hash, sus []suspect) {
	if len(sus) == 0 {
		return
	}
	k := originKey{c.hash, path}
	if o := b.origins[k]; o != nil {
		o.suspects, o.merged = append(o.suspects, sus...), true
		return
	}
	o := &blameOrigin{c: c, path: path, blob: blob, chain: chain, suspects: sus, seq: b.seq}
	b.origins[k] = o
	b.seq++
	b.refs[blob]++
	b.queue.Put(o)
}

// release drops the lines of a blob no queued origin holds.
func (b *blamer) release(h plumbing.Hash) {
	if b.refs[h] <= 0 {
		delete(b.refs, h)
		delete(b.blobs, h)
	}
}

// keysOf returns what the walk asks about path p, computed once per blame.
func (b *blamer) keysOf(p string) *pathKeys {
	if k := b.keys[p]; k != nil {
		return k
	}
	k := &pathKeys{names: splitPath(p)}
	if b.opts.Graph.HasFilters() {
		k.bloom = commitgraph.NewKeys(p)
	}
	if b.opts.Index != nil {
		k.id, k.interned = b.opts.Index.PathID(p)
	}
	b.keys[p] = k
	return k
}

// parentVersion is the file as a parent has it.
type parentVersion struct {
	c     *node
	path  string
	blob  plumbing.Hash
	chain []plumbing.Hash
	found bool
}

// pass hands o's suspects to its parents and blames o's commit for the rest. Like git, it looks for the
// file at the same path in each parent first, then (whole-file rename following) under another path in the
// parents that lack it; the first parent found with the same blob takes every line.
func (b *blamer) pass(o *blameOrigin) error {
	sus := o.suspects
	o.suspects = nil
	if o.merged {
		slices.SortFunc(sus, func(x, y suspect) int { return x.at - y.at })
	}
	ps := make([]parentVersion, len(o.c.parents))
	a := b.pre.take(o.c, o.path)
	for i, h := range o.c.parents {
		if a != nil && i < len(a.parents) {
			ps[i] = a.parents[i]
			if ps[i].found && ps[i].blob == o.blob {
				b.give(ps[i].c, o.path, o.blob, ps[i].chain, sus)
				return nil
			}
			continue
		}
		pc, err := b.commits.get(h)
		if errors.Is(err, plumbing.ErrObjectNotFound) {
			continue // shallow clone boundary: o keeps what it has
		}
		if err != nil {
			return err
		}
		ps[i].c, ps[i].path = pc, o.path
		if ps[i].blob, ps[i].chain, ps[i].found, err = b.samePath(o, i, pc); err != nil {
			return err
		}
		if ps[i].found && ps[i].blob == o.blob {
			b.give(pc, o.path, o.blob, ps[i].chain, sus)
			return nil
		}
	}
	for i := range ps {
		if ps[i].c == nil || ps[i].found {
			continue
		}
		from, blob, err := b.renamedFrom(ps[i].c, o)
		if err != nil {
			return err
		}
		if from == "" {
			continue
		}
		ps[i].path, ps[i].blob, ps[i].found = from, blob, true
		b.pre.seed(ps[i].c, from, blob)
		if blob == o.blob {
			b.give(ps[i].c, from, blob, nil, sus)
			return nil
		}
	}
	for i, p := range ps {
		if !p.found || slices.ContainsFunc(ps[:i], func(q parentVersion) bool { return q.found && q.blob == p.blob }) {
			continue
		}
		var err error
		if sus, err = b.passToParent(o, p, sus); err != nil || len(sus) == 0 {
			return err
		}
	}
	for _, s := range sus {
		b.owner[s.final] = Owner{Commit: o.c.hash, Path: o.path, Line: s.at + 1}
	}
	return nil
}

// samePath finds o's file at the same path in its parent number i, pc: unchanged when the commit-graph's
// Bloom filter or the changed-paths index says so, else by walking pc's trees (see lookupIn). An unchanged
// parent inherits o's chain: its trees may differ from o's above the path, but any tree equal to one of
// o's holds o's blob at the path, which is all a chain promises.
func (b *blamer) samePath(o *blameOrigin, i int, pc *node) (plumbing.Hash, []plumbing.Hash, bool, error) {
	k := b.keysOf(o.path)
	if i == 0 && o.c.inGraph && k.bloom != nil && !b.opts.Graph.MaybeChanged(o.c.pos, k.bloom) {
		return o.blob, o.chain, true, nil
	}
	if b.opts.Index != nil {
		if changed, known := b.opts.Index.Changed(o.c.hash, i, k.id, k.interned); known && !changed {
			return o.blob, o.chain, true, nil
		}
	}
	return lookupIn(b.readTree, pc.tree, k.names, o.chain, o.blob)
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
	keep, passed := splitSuspects(sus, b.differ.DiffNoContext(theirs, mine))
	b.give(p.c, p.path, p.blob, p.chain, passed)
	b.release(p.blob)
	return keep, nil
}

func (b *blamer) readTree(h plumbing.Hash) ([]byte, error) {
	return b.rp.RawObject(plumbing.TreeObject, h)
}

func (o *blameOrigin) CommitTime() (int64, int) { return o.c.time, o.seq }
