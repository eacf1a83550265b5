package watch

import (
	"io/fs"
	"path/filepath"
)

// walker adds watches for a directory tree. Called with the Watcher's lock held.
type walker struct {
	w     *Watcher
	c     *changes // when not nil, every entry found is reported as created (a new directory is being scanned)
	seen  set      // when not nil, collects every directory that should be watched (rescan)
	force bool     // re-add watches that exist
}

// walk watches root and every non-ignored directory below it, never following symlinks. Only an error on
// root itself is returned; directories that vanish or can't be read are skipped.
func (wk *walker) walk(root string) error {
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if wk.w.stopped() {
			return filepath.SkipAll
		}
		if err != nil {
			if p == root {
				return err
			}
			return nil
		}
		if p != root {
			return wk.entry(p, d)
		}
		return wk.dir(p)
	})
}

func (wk *walker) entry(p string, d fs.DirEntry) error {
	isDir := d.IsDir() // false for a symlink, whatever it points to
	if d.Name() == ".git" {
		if isDir {
			wk.git(p, filepath.Dir(p))
			return fs.SkipDir
		}
		return nil // a "gitdir:" file (linked worktree, submodule): its git directory may lie outside the roots
	}
	if !isDir && wk.c == nil {
		return nil // only directories get watches, and nothing is being reported
	}
	if wk.w.ignored(p, isDir) {
		if isDir {
			return fs.SkipDir
		}
		return nil
	}
	if wk.c != nil {
		wk.c.appeared(p)
	}
	if !isDir {
		return nil
	}
	return wk.dir(p)
}

func (wk *walker) dir(p string) error {
	dw, err := wk.w.watchDir(p, wk.force)
	if err != nil {
		wk.w.addFailed(p, err)
		return fs.SkipDir
	}
	dw.tree = true
	if wk.seen != nil {
		wk.seen.add(p)
	}
	return nil
}

// git watches a .git directory non-recursively, plus .git/refs/**: git updates index, HEAD, packed-refs and
// refs by writing a *.lock file and renaming it, which shows up as events in those directories.
func (wk *walker) git(gitDir, worktree string) {
	dw, err := wk.w.watchDir(gitDir, wk.force)
	if err != nil {
		wk.w.addFailed(gitDir, err)
		return
	}
	dw.worktree = worktree
	if wk.seen != nil {
		wk.seen.add(gitDir)
	}
	if wk.c != nil {
		wk.c.git.add(worktree)
	}
	wk.refs(filepath.Join(gitDir, "refs"), worktree)
}

// refs watches dir, a directory below .git/refs, and every directory below it.
func (wk *walker) refs(dir, worktree string) {
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if wk.w.stopped() {
			return filepath.SkipAll
		}
		if err != nil || !d.IsDir() {
			return nil
		}
		dw, err := wk.w.watchDir(p, wk.force)
		if err != nil {
			wk.w.addFailed(p, err)
			return fs.SkipDir
		}
		dw.worktree, dw.refs = worktree, true
		if wk.seen != nil {
			wk.seen.add(p)
		}
		return nil
	})
}
