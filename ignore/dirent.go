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

// entryDir is the directory shared by the entries of one listing. Entries
// are used on the walking goroutine only, so it needs no lock.
type entryDir struct {
	root *os.Root
	name string   // the directory, relative to root
	own  *os.Root // the directory itself, opened at the first Info
	list *os.File // the directory as listed, kept open for LstatEntry (nil if not kept)
	fd   int      // list's descriptor
}

// lstat describes the entry name. Through the directory's own root it is one
// fstatat; through the parent's, os.Root would open the directory each time.
func (d *entryDir) lstat(name string) (fs.FileInfo, error) {
	if d.own == nil {
		own, err := d.root.OpenRoot(d.name)
		if err != nil {
			return d.root.Lstat(path.Join(d.name, name))
		}
		d.own = own
	}
	return d.own.Lstat(name)
}

// keepListing hands f, the directory the entries were listed from, to
// them; false if they cannot use it (then the caller closes it).
func keepListing(entries []fs.DirEntry, f *os.File) bool {
	if len(entries) == 0 {
		return false
	}
	e, ok := entries[0].(*dirEntry)
	if !ok {
		return false
	}
	rc, err := f.SyscallConn()
	if err != nil || rc.Control(func(fd uintptr) { e.dir.fd = int(fd) }) != nil {
		return false
	}
	e.dir.list = f
	return true
}

// closeListing releases what the entries of one listing opened.
func closeListing(entries []fs.DirEntry) {
	if len(entries) == 0 {
		return
	}
	e, ok := entries[0].(*dirEntry)
	if !ok {
		return
	}
	if e.dir.own != nil {
		e.dir.own.Close()
		e.dir.own = nil
	}
	if e.dir.list != nil {
		e.dir.list.Close()
		e.dir.list = nil
	}
}

func (e *dirEntry) Name() string      { return e.name }
func (e *dirEntry) IsDir() bool       { return e.typ.IsDir() }
func (e *dirEntry) Type() fs.FileMode { return e.typ }
func (e *dirEntry) String() string    { return fs.FormatDirEntry(e) }
func (e *dirEntry) Info() (fs.FileInfo, error) {
	return e.dir.lstat(e.name)
}
