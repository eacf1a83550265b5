// Package stamp tells whether a file or directory changed between two looks
// at it: a [Stamp] holds what lstat says of its identity, size and times
// (on Linux; elsewhere its size and modification time), and two stamps of an
// unchanged file are equal. A directory's stamp moves when an entry is added,
// removed or renamed. fsres keeps stamps to know when a cached page of
// resources/list is stale.
//
//	before := stamp.At(root, "src/.gitignore")
//	…
//	if stamp.At(root, "src/.gitignore") != before { /* rebuild */ }
package stamp

import (
	"io/fs"
	"os"
)

// At is the stamp of name in r, not following a final symlink; the zero
// Stamp if it does not exist.
func At(r *os.Root, name string) Stamp {
	info, err := r.Lstat(name)
	if err != nil {
		return Stamp{}
	}
	return Of(info)
}

// Of is the stamp of what info describes; the zero Stamp for nil.
func Of(info fs.FileInfo) Stamp {
	if info == nil {
		return Stamp{}
	}
	return of(info)
}
