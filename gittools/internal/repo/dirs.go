package repo

// The repository's directories, pinned. Discovery decides the git dir, common dir and worktree as real
// paths; OpenStorage opens each once through the os.Root of the root holding it (roots opened those) and
// keeps the handle, and every later read or write of the repository (go-git's storage and worktree through
// rootfs, grove's own readers through these handles) is relative to it. A path swapped for a symlink to
// elsewhere after that cannot redirect a read: the handle still names the directory that was checked, and
// below it os.Root refuses whatever leads out. Refresh notices when a path no longer names the pinned
// directory (a re-clone, a swap) and reopens through the root handles, which refuse an outside target.

import (
	"errors"
	"os"
	"path/filepath"

	"github.com/grove-mcp/grove/ignore"
	"github.com/grove-mcp/grove/roots"
)

// errNoHandle is the error for a repository directory that lies in no root of the scope.
var errNoHandle = errors.New("repository directory outside the roots")

// pinnedDir is one directory of the repository opened through a root handle.
type pinnedDir struct {
	path string      // the absolute real path discovery decided
	root *os.Root    // the directory itself
	info os.FileInfo // its stat data when opened, to tell whether path still names it
	via  metaRoot    // the root handle it was opened through
	name string      // path below via
}

// dirs are the git dir, the common dir and the worktree, pinned (common is git when they are one).
type dirs struct {
	git, common, worktree pinnedDir
}

// handleOf returns the root handle holding the absolute path p, and p's name below it: through rp.Scope, or,
// without one, through the worktree's root.
func (rp *Repo) handleOf(p string) (metaRoot, string, bool) {
	var m metaRoot
	var ok bool
	if rp.Scope != nil {
		m, ok = metaRoots{sc: rp.Scope}.of(p)
	} else {
		m, ok = metaRootOf(rp.Loc)
	}
	if !ok {
		return metaRoot{}, "", false
	}
	name, ok := m.name(p)
	return m, name, ok
}

// pin opens the directory at the absolute path p through the root handle holding it.
func (rp *Repo) pin(p string) (pinnedDir, error) {
	m, name, ok := rp.handleOf(p)
	if !ok {
		return pinnedDir{}, errNoHandle
	}
	r, err := m.fs.OpenRoot(name)
	if err != nil {
		return pinnedDir{}, err
	}
	fi, err := r.Stat(".")
	if err != nil {
		r.Close()
		return pinnedDir{}, err
	}
	return pinnedDir{path: p, root: r, info: fi, via: m, name: name}, nil
}

// openDirs pins the repository's three directories.
func (rp *Repo) openDirs() (err error) {
	var d dirs
	defer func() {
		if err != nil {
			d.close()
		}
	}()
	if d.git, err = rp.pin(rp.GitDir); err != nil {
		return err
	}
	d.common = d.git
	if rp.CommonDir != rp.GitDir {
		if d.common, err = rp.pin(rp.CommonDir); err != nil {
			return err
		}
	}
	if d.worktree, err = rp.pin(rp.Worktree); err != nil {
		return err
	}
	rp.dirs = d
	return nil
}

func (d *dirs) close() {
	if d.common.root != nil && d.common.root != d.git.root {
		d.common.root.Close()
	}
	for _, r := range []*os.Root{d.git.root, d.worktree.root} {
		if r != nil {
			r.Close()
		}
	}
	*d = dirs{}
}

// moved reports whether a pinned directory's path, looked up now through the root handle it was opened
// through, names another directory (or nothing, or a symlink), or whether that root has moved. (The scope of
// a later request is checked by its discovery: the path lies in its roots.)
func (rp *Repo) moved() bool {
	checked := "" // the root last found intact: the three usually share one
	for _, p := range []pinnedDir{rp.dirs.git, rp.dirs.common, rp.dirs.worktree} {
		if p.root == nil {
			return true
		}
		if p.via.dir != checked && !p.via.intact() {
			return true
		}
		checked = p.via.dir
		fi, err := p.via.fs.Lstat(p.name)
		if err != nil || !fi.IsDir() || !os.SameFile(fi, p.info) {
			return true
		}
	}
	return false
}

// GitRoot is the git dir, opened through the root handle; names below it are opened relative to it. Caller
// holds rp's lock; don't close it.
func (rp *Repo) GitRoot() *os.Root { return rp.dirs.git.root }

// CommonRoot is the common dir (objects, refs, config), as GitRoot.
func (rp *Repo) CommonRoot() *os.Root { return rp.dirs.common.root }

// WorktreeRoot is the worktree, as GitRoot.
func (rp *Repo) WorktreeRoot() *os.Root { return rp.dirs.worktree.root }

// OpenDir opens a new handle on the repository directory abs (the git dir, the common dir or a directory
// below either), relative to the pinned handles; the caller closes it.
func (rp *Repo) OpenDir(abs string) (*os.Root, error) {
	for _, p := range []pinnedDir{rp.dirs.git, rp.dirs.common} {
		if p.root == nil {
			continue
		}
		if rel, err := filepath.Rel(p.path, abs); err == nil && (rel == "." || filepath.IsLocal(rel)) {
			return p.root.OpenRoot(rel)
		}
	}
	return nil, roots.ErrNotFound
}

// NewMatcher returns an ignore matcher for the worktree that opens it through the handle of the root holding
// it (as it was when the matcher was made), never by path.
func (rp *Repo) NewMatcher() *ignore.Matcher {
	loc := rp.Loc
	return ignore.NewIn(rp.Worktree, func() (*os.Root, error) { return loc.FS().OpenRoot(loc.Name()) })
}
