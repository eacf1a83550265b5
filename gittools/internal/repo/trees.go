package repo

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/grove-mcp/grove/gittools/internal/gitfmt"
)

// TreeEntries reads a tree's entries (the raw object, parsed by gitfmt's tree parser), refusing a tree with
// a name git would never write (see validPathComponent); the zero hash is the empty tree.
func TreeEntries(rp *Repo, h plumbing.Hash) ([]object.TreeEntry, error) {
	if h.IsZero() {
		return nil, nil
	}
	data, err := rp.RawObject(plumbing.TreeObject, h)
	if err != nil {
		return nil, rp.Noted(err)
	}
	es := make([]object.TreeEntry, 0, bytes.Count(data, []byte{0}))
	it := gitfmt.NewTreeIter(data)
	for e, ok := it.Next(); ok; e, ok = it.Next() {
		name := string(e.Name)
		if !gitfmt.ValidPathComponent(name) {
			return nil, rp.Noted(gitfmt.BadEntry("tree "+h.String()[:ShortLen], name))
		}
		es = append(es, object.TreeEntry{Name: name, Mode: e.Mode, Hash: e.Hash})
	}
	if err := it.Err(); err != nil {
		return nil, rp.Noted(fmt.Errorf("reading tree %s: %w", h.String()[:ShortLen], err))
	}
	return es, nil
}

// MaxTreeEntries bounds the tree entries (files and directories, in every tree read) one walk over a
// repository's trees examines: more than the largest real checkouts (Chromium's, about 480,000 files), and
// what stops a crafted tree whose subtrees repeat, which could otherwise list billions of paths from a few KB.
var MaxTreeEntries = 1_000_000 // a variable so tests can lower it

// TreeBudget is what one walk over trees may still examine; it also checks the request's context.
type TreeBudget struct {
	left, trees int
}

func NewTreeBudget() *TreeBudget { return &TreeBudget{left: MaxTreeEntries} }

// Next counts one tree read, checking ctx.
func (b *TreeBudget) Next(ctx context.Context) error {
	if b.trees++; b.trees%64 == 1 {
		return ctx.Err()
	}
	return nil
}

// Spend counts n entries.
func (b *TreeBudget) Spend(n int) error {
	if b.left -= n; b.left < 0 {
		return fmt.Errorf("the trees hold more than %d entries, more than grove walks in one call; "+
			"limit the call to a path", MaxTreeEntries)
	}
	return nil
}

// Child is the path of the entry name (already checked by treeEntries) in dir, refused past maxRepoPath: a
// chain of nested trees cannot build ever longer paths.
func (b *TreeBudget) Child(dir, name string) (string, error) {
	if dir == "" {
		return name, nil
	}
	if len(dir)+1+len(name) > gitfmt.MaxRepoPath {
		return "", gitfmt.BadEntry("tree", dir[:64]+"…")
	}
	return dir + "/" + name, nil
}

// WalkTree calls leaf for every entry that is not a tree under tree h, whose path is dir ("" for a root
// tree), depth first in tree order, within walk's budget. When enter is not nil it is asked before each tree
// (h itself included) is read, and a false answer skips that tree: a caller that knows a subtree is
// unchanged need not read it.
func WalkTree(rp *Repo, ctx context.Context, h plumbing.Hash, dir string, walk *TreeBudget,
	enter func(dir string, h plumbing.Hash) bool, leaf func(p string, e object.TreeEntry)) error {
	if enter != nil && !enter(dir, h) {
		return nil
	}
	if err := walk.Next(ctx); err != nil {
		return err
	}
	es, err := TreeEntries(rp, h)
	if err != nil {
		return err
	}
	if err := walk.Spend(len(es)); err != nil {
		return err
	}
	for _, e := range es {
		p, err := walk.Child(dir, e.Name)
		if err != nil {
			return rp.Noted(err)
		}
		if e.Mode == filemode.Dir {
			if err := WalkTree(rp, ctx, e.Hash, p, walk, enter, leaf); err != nil {
				return err
			}
			continue
		}
		leaf(p, e)
	}
	return nil
}

// TreeLookup finds the entry at a path in trees, reading tree objects as raw bytes (go-git's Tree.Decode
// allocates per entry and was 41 % of a path-log walk) and memoising per (tree, rest of path) in a
// direct-mapped table: a collision replaces the older result. A map here grew to tens of thousands of
// entries in one path log and its growth cost a sixth of the walk; the walk's repeats are close together
// (a commit's tree is looked up as a parent's, then as the commit's own), which a table of lookupSlots
// catches as well.
type TreeLookup struct {
	rp   *Repo
	memo []memoSlot // lookupSlots, allocated on first use
}

type memoSlot struct {
	key  lookupKey
	hit  treeHit
	used bool
}

// lookupSlots is the size of a TreeLookup's memo (a power of two).
const lookupSlots = 1 << 13

// TreeHit is what Find returns.
type TreeHit = treeHit

type lookupKey struct {
	tree plumbing.Hash
	path string
}

type treeHit struct {
	Hash  plumbing.Hash
	Mode  filemode.FileMode
	Found bool
}

func NewTreeLookup(rp *Repo) *TreeLookup {
	return &TreeLookup{rp: rp}
}

// slot is k's place in the memo.
func (l *TreeLookup) slot(k lookupKey) *memoSlot {
	if l.memo == nil {
		l.memo = make([]memoSlot, lookupSlots)
	}
	i := (binary.LittleEndian.Uint32(k.tree[:4]) + uint32(len(k.path))*0x9e3779b1) & (lookupSlots - 1)
	return &l.memo[i]
}

// Find returns the entry at p (slash-separated, no leading slash) in tree t.
func (l *TreeLookup) Find(t plumbing.Hash, p string) (treeHit, error) {
	k := lookupKey{t, p}
	if s := l.slot(k); s.used && s.key == k {
		return s.hit, nil
	}
	name, rest, deeper := strings.Cut(p, "/")
	e, err := l.entry(t, name)
	if err != nil {
		return treeHit{}, err
	}
	if e.Found && deeper {
		if e.Mode != filemode.Dir {
			e = treeHit{}
		} else if e, err = l.Find(e.Hash, rest); err != nil {
			return treeHit{}, err
		}
	}
	*l.slot(k) = memoSlot{key: k, hit: e, used: true}
	return e, nil
}

// entry scans one raw tree object for name.
func (l *TreeLookup) entry(t plumbing.Hash, name string) (treeHit, error) {
	data, err := l.rp.RawObject(plumbing.TreeObject, t) // at most maxObjectBytes
	if err != nil {
		return treeHit{}, err
	}
	return scanTree(data, name), nil
}

// scanTree finds name in a raw tree object (see gitfmt.TreeIter).
func scanTree(data []byte, name string) treeHit {
	e, ok := gitfmt.FindTreeEntry(data, name)
	if !ok {
		return treeHit{}
	}
	return treeHit{Hash: e.Hash, Mode: e.Mode, Found: true}
}
