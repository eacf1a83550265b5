package writecmd

// What a worktree transaction does to the worktree, as *os.Root's methods of the same names: through the
// root itself, or (on Linux, see txfs_linux.go) through handles of the directories it works in, so that a
// step on a/b/c is one system call on the handle of a/b instead of opening and closing a and a/b around it.

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/grove-mcp/grove/gittools/internal/gitwrite"
)

// txFS is the worktree as a transaction sees it. Names are relative to the worktree, in the platform's form.
type txFS interface {
	Lstat(name string) (fs.FileInfo, error)
	Rename(oldname, newname string) error
	OpenFile(name string, flag int, perm fs.FileMode) (*os.File, error)
	Mkdir(name string, perm fs.FileMode) error
	Remove(name string) error
	RemoveAll(name string) error
	Symlink(oldname, newname string) error
	// CheckParents is gitwrite.CheckParents on the slash path rel.
	CheckParents(rel string) error
	// RealDir reports whether the slash path dir ("." included) is a directory reached through directories
	// only, no symlink on the way; false also means "not known without looking".
	RealDir(dir string) bool
	// Exchange swaps the entries oldname and newname, both present, in one step (Linux's renameat2 with
	// RENAME_EXCHANGE); errors.ErrUnsupported when the platform or the file system cannot.
	Exchange(oldname, newname string) error
	// Hold returns the directory dir (slash path, "." the worktree) for creating files in from another
	// goroutine: it stays valid, whatever the txFS opens and closes meanwhile, until released.
	Hold(dir string) (heldDir, error)
	// Close releases what the txFS opened; the worktree's root stays open.
	Close()
}

// heldDir is a directory a stage writer creates files in (txFS.Hold).
type heldDir interface {
	// Create makes the new file base (one name, not a path) in the directory; it must not exist.
	Create(base string, perm fs.FileMode) (*os.File, error)
	Release()
}

// rootFS is a txFS straight on the worktree's root.
type rootFS struct{ *os.Root }

func (r rootFS) CheckParents(rel string) error { return gitwrite.CheckParents(r.Root, rel) }
func (r rootFS) RealDir(dir string) bool       { return dir == "." }
func (r rootFS) Close()                        {}

func (r rootFS) Exchange(oldname, newname string) error { return errors.ErrUnsupported }

func (r rootFS) Hold(dir string) (heldDir, error) { return rootDir{r.Root, dir}, nil }

// rootDir is a held directory of a rootFS: every create goes through the root.
type rootDir struct {
	root *os.Root
	dir  string // slash path
}

func (h rootDir) Create(base string, perm fs.FileMode) (*os.File, error) {
	return h.root.OpenFile(filepath.FromSlash(path.Join(h.dir, base)), os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
}

func (h rootDir) Release() {}

// splitSlash splits a slash path into its directory ("" at the top) and last component.
func splitSlash(p string) (string, string) {
	i := strings.LastIndexByte(p, '/')
	if i < 0 {
		return "", p
	}
	return p[:i], p[i+1:]
}

// dirOf is the directory of the slash path p ("." at the top).
func dirOf(p string) string {
	if dir, _ := splitSlash(p); dir != "" {
		return dir
	}
	return "."
}
