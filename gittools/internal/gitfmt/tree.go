package gitfmt

// Raw tree objects (gitformat-tree: a sequence of "<octal mode> SP <name> NUL <20-byte hash>" entries), read
// in place: every reader of tree objects in gittools (tree path lookups, the path index's tree diff, blame)
// goes through TreeIter, so there is one parser and one notion of a malformed tree.

import (
	"bytes"
	"errors"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// ErrBadTree is the error of a tree object whose bytes are not a sequence of entries.
var ErrBadTree = errors.New("malformed tree object")

// maxModeDigits is the longest mode a tree entry may have (git writes at most 6 octal digits; 7 leaves room
// for a leading zero).
const maxModeDigits = 7

// TreeEntry is one entry of a raw tree object. Name aliases the object's data (its capacity ends with it).
type TreeEntry struct {
	Mode filemode.FileMode
	Name []byte
	Hash plumbing.Hash
}

// TreeIter walks the entries of a raw tree object:
//
//	it := gitfmt.NewTreeIter(data)
//	for e, ok := it.Next(); ok; e, ok = it.Next() { … }
//	if it.Err() != nil { … } // malformed: the entries before the fault were returned
type TreeIter struct {
	data []byte // from the next entry on
	cur  []byte // from the entry advance stepped over on
	err  error
}

// NewTreeIter returns an iterator over the tree object data.
func NewTreeIter(data []byte) TreeIter { return TreeIter{data: data} }

// Next returns the next entry, or ok false at the end of the data or at the first malformed entry.
func (it *TreeIter) Next() (TreeEntry, bool) {
	sp, nul, ok := it.advance()
	if !ok {
		return TreeEntry{}, false
	}
	return it.decode(sp, nul)
}

// advance finds the bounds of the next entry (its space and its NUL) and steps over it, checking only its
// shape: path lookups skip most entries by name and decode just the one they want.
func (it *TreeIter) advance() (sp, nul int, ok bool) {
	data := it.data
	if len(data) == 0 || it.err != nil {
		return 0, 0, false
	}
	sp = bytes.IndexByte(data[:min(len(data), maxModeDigits+1)], ' ')
	if sp <= 0 {
		it.err = ErrBadTree
		return 0, 0, false
	}
	nul = bytes.IndexByte(data[sp+1:], 0) + sp + 1
	if nul == sp || nul+1+len(plumbing.ZeroHash) > len(data) {
		it.err = ErrBadTree
		return 0, 0, false
	}
	it.cur = data
	it.data = data[nul+1+len(plumbing.ZeroHash):]
	return sp, nul, true
}

// decode reads the entry advance stepped over.
func (it *TreeIter) decode(sp, nul int) (e TreeEntry, ok bool) {
	data := it.cur
	for _, c := range data[:sp] {
		if c < '0' || c > '7' {
			it.err, it.data = ErrBadTree, nil
			return TreeEntry{}, false
		}
		e.Mode = e.Mode<<3 | filemode.FileMode(c-'0')
	}
	e.Name = data[sp+1 : nul : nul]
	e.Hash = plumbing.Hash(data[nul+1 : nul+1+len(plumbing.ZeroHash)])
	return e, true
}

// Err is ErrBadTree when the walk stopped at a malformed entry, else nil.
func (it *TreeIter) Err() error { return it.err }

// FindTreeEntry returns the entry of the tree object data named name. A malformed tree is searched up to
// the fault; the modes of the entries it skips are not decoded.
func FindTreeEntry(data []byte, name string) (TreeEntry, bool) {
	it := NewTreeIter(data)
	for {
		sp, nul, ok := it.advance()
		if !ok {
			return TreeEntry{}, false
		}
		if nul-sp-1 == len(name) && string(it.cur[sp+1:nul]) == name {
			return it.decode(sp, nul)
		}
	}
}
