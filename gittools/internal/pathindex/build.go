package pathindex

import (
	"bytes"
	"errors"
	"slices"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/grove-mcp/grove/gittools/internal/gitfmt"
	"github.com/grove-mcp/grove/gittools/internal/repo"
)

// Builder adds the commits reachable from some tips to an index, a few at a time: each Step runs under the
// repository's lock (go-git is not thread-safe) and returns, so tool calls get the lock between steps.
type Builder struct {
	x       *Index
	pending []plumbing.Hash
	seen    map[plumbing.Hash]bool
	visited int
}

// MaxCommits bounds one build: the commits a Builder visits.
var MaxCommits = 2_000_000

// maxChanged bounds the paths recorded for one commit and parent: past it (a large import or a merge of a
// long branch) the list is unknown, and a query reads that commit's trees instead.
const maxChanged = 4096

// Builder returns a builder that indexes the commits reachable from tips, skipping those already indexed.
func (x *Index) Builder(tips ...plumbing.Hash) *Builder {
	return &Builder{x: x, pending: slices.Clone(tips), seen: map[plumbing.Hash]bool{}}
}

// Step indexes up to n more commits, reading them from rp; caller holds rp.Mu. done reports that nothing is
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
		c, ok := g.Commit(h)
		if !ok {
			continue // missing (a shallow boundary): queries read trees there
		}
		if !b.x.Has(h) {
			if !b.x.add(h, c.Committer.When.Unix(), c.ParentHashes, changedLists(rp, g, c.TreeHash, c.ParentHashes)) {
				return true, nil
			}
		}
		b.pending = append(b.pending, c.ParentHashes...)
	}
	return len(b.pending) == 0, nil
}

// changedLists diffs tree against each parent's tree (the empty tree for a root commit).
func changedLists(rp *repo.Repo, g *repo.CommitGraph, tree plumbing.Hash, parents []plumbing.Hash) [][]string {
	if len(parents) == 0 {
		return [][]string{diffList(rp, plumbing.ZeroHash, tree)}
	}
	out := make([][]string, len(parents))
	for i, ph := range parents {
		pc, ok := g.Commit(ph)
		if !ok {
			continue // unknown
		}
		out[i] = diffList(rp, pc.TreeHash, tree)
	}
	return out
}

// diffList lists the paths whose entries differ between trees a and b (zero: empty), or nil when it cannot
// (more than maxChanged paths, an unreadable tree).
func diffList(rp *repo.Repo, a, b plumbing.Hash) []string {
	d := differ{rp: rp, out: []string{}}
	if err := d.trees(a, b, ""); err != nil {
		return nil
	}
	return d.out
}

type differ struct {
	rp  *repo.Repo
	out []string
}

var errTooMany = errors.New("too many changed paths")

// treeEntry is one parsed entry of a raw tree.
type treeEntry struct {
	name string
	mode filemode.FileMode
	hash plumbing.Hash
}

// trees records every path under dir whose entry differs between trees a and b (either may be zero).
func (d *differ) trees(a, b plumbing.Hash, dir string) error {
	if a == b {
		return nil
	}
	ea, err := d.read(a)
	if err != nil {
		return err
	}
	eb, err := d.read(b)
	if err != nil {
		return err
	}
	byName := make(map[string]treeEntry, len(ea))
	for _, e := range ea {
		if _, dup := byName[e.name]; !dup { // the first entry of a name is the one a path lookup finds
			byName[e.name] = e
		}
	}
	seen := make(map[string]bool, len(eb))
	for _, e := range eb {
		if seen[e.name] {
			continue
		}
		seen[e.name] = true
		o, ok := byName[e.name]
		if ok && o.mode == e.mode && o.hash == e.hash {
			continue
		}
		if err := d.entry(o, ok, e, true, dir); err != nil {
			return err
		}
	}
	for _, e := range ea {
		if !seen[e.name] {
			seen[e.name] = true
			if err := d.entry(e, true, treeEntry{}, false, dir); err != nil {
				return err
			}
		}
	}
	return nil
}

// entry records a differing entry (old and/or new present) and descends into whichever sides are trees.
func (d *differ) entry(o treeEntry, hasOld bool, n treeEntry, hasNew bool, dir string) error {
	name := n.name
	if !hasNew {
		name = o.name
	}
	p := name
	if dir != "" {
		p = dir + "/" + name
	}
	if len(p) > gitfmt.MaxRepoPath {
		return errTooMany
	}
	if len(d.out) == maxChanged {
		return errTooMany
	}
	d.out = append(d.out, p)
	var ta, tb plumbing.Hash
	if hasOld && o.mode == filemode.Dir {
		ta = o.hash
	}
	if hasNew && n.mode == filemode.Dir {
		tb = n.hash
	}
	if ta.IsZero() && tb.IsZero() {
		return nil
	}
	return d.trees(ta, tb, p)
}

// read parses tree h (zero: the empty tree) from its raw bytes.
func (d *differ) read(h plumbing.Hash) ([]treeEntry, error) {
	if h.IsZero() {
		return nil, nil
	}
	o, err := d.rp.Git.Storer.EncodedObject(plumbing.TreeObject, h)
	if err != nil {
		return nil, err
	}
	data, err := repo.ReadPrefix(o, o.Size()) // at most the store's object limit
	if err != nil {
		return nil, err
	}
	var out []treeEntry
	for len(data) > 0 {
		sp := bytes.IndexByte(data, ' ')
		if sp < 0 {
			return nil, errBadTree
		}
		nul := bytes.IndexByte(data[sp:], 0)
		if nul < 0 || sp+nul+21 > len(data) {
			return nil, errBadTree
		}
		nul += sp
		m, err := filemode.New(string(data[:sp]))
		if err != nil {
			return nil, errBadTree
		}
		e := treeEntry{name: string(data[sp+1 : nul]), mode: m}
		copy(e.hash[:], data[nul+1:nul+21])
		out = append(out, e)
		data = data[nul+21:]
	}
	return out, nil
}

var errBadTree = errors.New("malformed tree")
