package blame

import (
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/grove-mcp/grove/gittools/internal/gitfmt"
)

// A file's place in a commit is its chain: the tree objects from the root tree down to the directory that
// holds it (chain[i] is the tree that lists path component i). Looking the file up in a parent walks the
// parent's trees down the same names and stops at the first tree the two chains share: below it nothing
// differs, so the parent has the same blob. Most commits change nothing on the path, and their parents are
// decided from the root trees alone, as git's path-limited tree diff decides them.

// splitPath splits a slash-separated path into its components.
func splitPath(p string) []string { return strings.Split(p, "/") }

// treeReader returns the content of a tree object.
type treeReader func(plumbing.Hash) ([]byte, error)

// lookupIn finds the file whose names are names in root tree t, given the chain and blob of the same path
// in a child (nil chain: none known). It returns the blob and the chain in t; found is false when t has no
// regular file, executable or symlink there.
func lookupIn(read treeReader, t plumbing.Hash, names []string, child []plumbing.Hash, childBlob plumbing.Hash) (blob plumbing.Hash, chain []plumbing.Hash, found bool, err error) {
	chain = make([]plumbing.Hash, len(names))
	for i, name := range names {
		chain[i] = t
		if child != nil && child[i] == t {
			copy(chain[i:], child[i:])
			return childBlob, chain, true, nil
		}
		data, err := read(t)
		if err != nil {
			return plumbing.ZeroHash, nil, false, err
		}
		h, mode, ok := findEntry(data, name)
		switch {
		case !ok:
			return plumbing.ZeroHash, nil, false, nil
		case i == len(names)-1:
			if !mode.IsFile() {
				return plumbing.ZeroHash, nil, false, nil
			}
			return h, chain, true, nil
		case mode != filemode.Dir:
			return plumbing.ZeroHash, nil, false, nil
		}
		t = h
	}
	return plumbing.ZeroHash, nil, false, nil
}

// findEntry scans a raw tree object (see gitfmt.TreeIter) for name.
func findEntry(data []byte, name string) (plumbing.Hash, filemode.FileMode, bool) {
	e, ok := gitfmt.FindTreeEntry(data, name)
	return e.Hash, e.Mode, ok
}
