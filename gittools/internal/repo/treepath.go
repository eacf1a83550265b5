package repo

import (
	"encoding/binary"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/grove-mcp/grove/gittools/internal/gitfmt"
)

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
