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
	data []byte
	err  error
}

// NewTreeIter returns an iterator over the tree object data.
func NewTreeIter(data []byte) TreeIter { return TreeIter{data: data} }

// Next returns the next entry, or ok false at the end of the data or at the first malformed entry.
func (it *TreeIter) Next() (e TreeEntry, ok bool) {
	data := it.data
	if len(data) == 0 || it.err != nil {
		return TreeEntry{}, false
	}
	sp := bytes.IndexByte(data[:min(len(data), maxModeDigits+1)], ' ')
	if sp <= 0 {
		it.err = ErrBadTree
		return TreeEntry{}, false
	}
	for _, c := range data[:sp] {
		if c < '0' || c > '7' {
			it.err = ErrBadTree
			return TreeEntry{}, false
		}
		e.Mode = e.Mode<<3 | filemode.FileMode(c-'0')
	}
	nul := bytes.IndexByte(data[sp:], 0)
	if nul < 0 || sp+nul+1+len(plumbing.ZeroHash) > len(data) {
		it.err = ErrBadTree
		return TreeEntry{}, false
	}
	nul += sp
	e.Name = data[sp+1 : nul : nul]
	copy(e.Hash[:], data[nul+1:])
	it.data = data[nul+1+len(plumbing.ZeroHash):]
	return e, true
}

// Err is ErrBadTree when the walk stopped at a malformed entry, else nil.
func (it *TreeIter) Err() error { return it.err }

// FindTreeEntry returns the entry of the tree object data named name. A malformed tree is searched up to
// the fault.
func FindTreeEntry(data []byte, name string) (TreeEntry, bool) {
	it := NewTreeIter(data)
	for e, ok := it.Next(); ok; e, ok = it.Next() {
		if string(e.Name) == name {
			return e, true
		}
	}
	return TreeEntry{}, false
}
