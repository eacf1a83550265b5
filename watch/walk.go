package watch

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
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
	if wk.c == nil {
		return wk.walkDirs(root)
	}
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

// walkDirs is walk when nothing is reported: only directories matter, so only the subdirectories of a
// directory become names (see listDirs), and only they are sorted. filepath.WalkDir
// would make and sort an entry for each of a 200,000-file directory's files, some 100 ms of CPU taken from
// the first requests at start-up.
func (wk *walker) walkDirs(root string) error {
	if _, err := os.Lstat(root); err != nil {
		return err
	}
	if wk.dir(root) != nil {
		return nil
	}
	// Depth first, each directory's subdirectories in name order, a directory watched just before its own
	// are listed: the order filepath.WalkDir goes in, so under a watch limit the same directories get one.
	// Under a descriptor budget, breadth first instead: the directories nearest the root are watched, the
	// deeper ones polled.
	bfs := wk.w.fds.budget > 0
	var names []string
	todo := wk.subdirs(root, nil, &names, bfs)
	for len(todo) > 0 {
		if wk.w.stopped() {
			return nil
		}
		var p string
		if bfs {
			p, todo = todo[0], todo[1:]
		} else {
			p, todo = todo[len(todo)-1], todo[:len(todo)-1]
		}
		if wk.entry(p, dirOnly(filepath.Base(p))) == nil {
			todo = wk.subdirs(p, todo, &names, bfs)
		}
	}
	return nil
}

// subdirs appends dir's subdirectories to todo: in name order for a queue (bfs), last name first for a
// stack. names is scratch space.
func (wk *walker) subdirs(dir string, todo []string, names *[]string, bfs bool) []string {
	*names = (*names)[:0]
	_ = listDirs(dir, func(name string) { *names = append(*names, name) }) // unreadable or gone: skipped
	slices.Sort(*names)
	if !bfs {
		slices.Reverse(*names)
	}
	for _, n := range *names {
		todo = append(todo, filepath.Join(dir, n))
	}
	return todo
}

// dirOnly is the fs.DirEntry of a directory found by listDirs, as much of one as entry asks for.
type dirOnly string

func (d dirOnly) Name() string               { return string(d) }
func (d dirOnly) IsDir() bool                { return true }
func (d dirOnly) Type() fs.FileMode          { return fs.ModeDir }
func (d dirOnly) Info() (fs.FileInfo, error) { return nil, fs.ErrInvalid }

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
	if errors.Is(err, errBudget) {
		wk.w.pollDir(p)
		return nil // its subdirectories may still fit, or are polled too
	}
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
