package writecmd

// What a worktree transaction does to the worktree, as *os.Root's methods of the same names: through the
// root itself, or (on Linux, see txfs_linux.go) through handles of the directories it works in, so that a
// step on a/b/c is one system call on the handle of a/b instead of opening and closing a and a/b around it.

import (
	"io/fs"
	"os"

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
	// Close releases what the txFS opened; the worktree's root stays open.
	Close()
}

// rootFS is a txFS straight on the worktree's root.
type rootFS struct{ *os.Root }

func (r rootFS) CheckParents(rel string) error { return gitwrite.CheckParents(r.Root, rel) }
func (r rootFS) RealDir(dir string) bool       { return dir == "." }
func (r rootFS) Close()                        {}
