package ignore

import (
	"io/fs"
	"os"
	"path"
)

// dirEntry is a directory entry whose type came from the directory listing
// itself; Info costs an lstat through the root that holds the directory.
type dirEntry struct {
	name string
	typ  fs.FileMode
	dir  *entryDir
}

// entryDir is the directory shared by the entries of one listing.
type entryDir struct {
	root *os.Root
	name string // the directory, relative to root
}

func (e *dirEntry) Name() string      { return e.name }
func (e *dirEntry) IsDir() bool       { return e.typ.IsDir() }
func (e *dirEntry) Type() fs.FileMode { return e.typ }
func (e *dirEntry) String() string    { return fs.FormatDirEntry(e) }
func (e *dirEntry) Info() (fs.FileInfo, error) {
	return e.dir.root.Lstat(path.Join(e.dir.name, e.name))
}
