package watch

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// dirWatch is one watched directory: part of a tree, the directory of single-file roots, or both; or a
// directory of git's (worktree set).
type dirWatch struct {
	tree     bool            // inside a directory root: every non-ignored entry is reported
	files    map[string]bool // base names of single-file roots in this directory
	worktree string          // for .git and the directories below .git/refs: the worktree they belong to
	refs     bool            // below .git/refs (worktree != "")
	children set             // watched subdirectories (absolute), so that dropping a tree is cheap
	cost     int             // descriptors the watch holds, where watches cost some (see fdBudget)
}

// SetRoots makes the watch set cover exactly paths: absolute, real directories (watched recursively) or
// regular files (their directory is watched and its events filtered to the file). Watches of roots no longer
// listed are removed, so their events stop. It returns once the watches of new roots are in place; a root
// that can't be used is skipped and reported in the error, and hitting the watch limit is not an error
// (see Status).
func (w *Watcher) SetRoots(paths []string) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return ErrClosed
	}
	w.walking.Store(true) // see Feed.Sync
	defer w.walking.Store(false)
	next := make(map[string]bool, len(paths))
	var errs []error
	for _, p := range paths {
		isFile, err := rootKind(p)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		next[filepath.Clean(p)] = isFile
	}
	old := w.roots
	w.roots = next
	dropped := false
	for d := range w.dirs {
		if !w.covered(d) {
			w.dropOne(d) // one by one: a directory below d may be a root itself
			w.loseFeeds(d)
			dropped = true
		}
	}
	for d := range w.fds.dirs {
		if !w.underDirRoot(d) {
			w.forgetPolled(d)
		}
	}
	if dropped && (w.degraded != "" || len(w.fds.dirs) > 0) {
		w.rescan() // watches were freed: retry the directories that hit the limit
	}
	for p, isFile := range next {
		if was, ok := old[p]; ok && was == isFile {
			continue
		}
		if err := w.addRoot(p, isFile, nil); err != nil {
			errs = append(errs, err)
		}
	}
	if w.stopped() {
		return ErrClosed // the walks may have been cut short
	}
	return errors.Join(errs...)
}

func rootKind(p string) (isFile bool, err error) {
	if !filepath.IsAbs(p) {
		return false, fmt.Errorf("root %q: not an absolute path", p)
	}
	fi, err := os.Lstat(p)
	if err != nil {
		return false, fmt.Errorf("root %q: %w", p, err)
	}
	switch {
	case fi.IsDir():
		return false, nil
	case fi.Mode().IsRegular():
		return true, nil
	}
	return false, fmt.Errorf("root %q: neither a directory nor a regular file", p)
}

// covered reports whether the watched directory d still serves a root, and trims the file filters of
// directories watched for single-file roots.
func (w *Watcher) covered(d string) bool {
	dw := w.dirs[d]
	if dw.worktree != "" {
		return w.underDirRoot(dw.worktree)
	}
	for name := range dw.files {
		if isFile, ok := w.roots[filepath.Join(d, name)]; !ok || !isFile {
			delete(dw.files, name)
		}
	}
	dw.tree = dw.tree && w.underDirRoot(d)
	return dw.tree || len(dw.files) > 0
}

func (w *Watcher) underDirRoot(p string) bool {
	for r, isFile := range w.roots {
		if !isFile && within(p, r) {
			return true
		}
	}
	return false
}

// within reports whether p is dir or lies below it, lexically.
func within(p, dir string) bool {
	return p == dir || strings.HasPrefix(p, dir) && (strings.HasSuffix(dir, string(filepath.Separator)) ||
		len(p) > len(dir) && p[len(dir)] == filepath.Separator)
}

// addRoot watches one root. seen, when not nil, collects the directories that should be watched (rescan).
func (w *Watcher) addRoot(p string, isFile bool, seen set) error {
	if !isFile {
		wk := walker{w: w, seen: seen, force: seen != nil}
		return wk.walk(p)
	}
	dir, name := filepath.Split(p)
	dir = filepath.Clean(dir)
	dw, err := w.watchDir(dir, seen != nil)
	if err != nil {
		w.addFailed(dir, err)
		return nil
	}
	if dw.files == nil {
		dw.files = make(map[string]bool)
	}
	dw.files[name] = true
	if seen != nil {
		seen.add(dir)
	}
	return nil
}

// watchDir adds a watch for dir unless it has one (or force: re-add it, as a rescan does, because the
// directory may have been replaced), and links it to its parent's children (again: the parent may have
// been added after it, by a wider root).
func (w *Watcher) watchDir(dir string, force bool) (*dirWatch, error) {
	dw := w.dirs[dir]
	if dw == nil || force {
		cost, err := w.add(dir, dw == nil)
		if err != nil {
			return nil, err
		}
		if dw == nil {
			dw = &dirWatch{cost: cost}
			w.fds.used += cost
			delete(w.fds.dirs, dir) // polled until now
			w.dirs[dir] = dw
			w.publish()
		}
	}
	if parent := w.dirs[filepath.Dir(dir)]; parent != nil && filepath.Dir(dir) != dir {
		parent.children.add(dir)
	}
	return dw, nil
}

// add adds the kernel's watch of dir (counting against MaxWatches and the descriptor budget if it is a new
// one) and returns the descriptors it holds.
func (w *Watcher) add(dir string, isNew bool) (cost int, err error) {
	if w.opts.MaxWatches > 0 && isNew && len(w.dirs) >= w.opts.MaxWatches {
		return 0, fmt.Errorf("adding watch %q: %w", dir, errLimit)
	}
	if isNew {
		if cost, err = w.charge(dir); err != nil {
			return 0, err
		}
	}
	if err := w.k.Add(dir); err != nil {
		return 0, fmt.Errorf("adding watch %q: %w", dir, err)
	}
	// inotify follows symlinks: if dir was swapped for one since it was listed, don't watch the target.
	if fi, err := os.Lstat(dir); err != nil || !fi.IsDir() {
		_ = w.k.Remove(dir)
		return 0, fmt.Errorf("adding watch %q: %w", dir, errNotDir)
	}
	return cost, nil
}

var errNotDir = errors.New("not a directory")

// addFailed handles a failed Add: the watch limit degrades the Watcher (logged once), anything else
// (the directory vanished, no permission) skips the directory.
func (w *Watcher) addFailed(dir string, err error) {
	if errors.Is(err, errBudget) {
		w.log.Debug("not watching directory", "dir", dir, "err", err)
		return
	}
	if isLimit(err) {
		w.degrade(fmt.Sprintf("the inotify watch limit was reached (%v); directories from %s on are not watched, "+
			"changes in them are missed except for polled files; raise fs.inotify.max_user_watches", err, dir))
		return
	}
	w.log.Debug("not watching directory", "dir", dir, "err", err)
}

func (w *Watcher) degrade(reason string) {
	if w.degraded != "" {
		return
	}
	w.degraded = reason
	w.publish()
	if !w.warned {
		w.warned = true
		w.log.Warn("file watching degraded", "reason", reason, "watches", len(w.dirs), "limit", systemLimit())
	}
}

// dropTree removes the watches of dir and every watched directory below it, reporting them in c (if not nil).
func (w *Watcher) dropTree(dir string, c *changes) {
	dw := w.dirs[dir]
	if dw == nil {
		return
	}
	for child := range dw.children {
		w.dropTree(child, c)
	}
	w.dropOne(dir)
	if c == nil {
		return
	}
	switch {
	case dw.worktree != "":
		c.git.add(dw.worktree)
	case dw.tree:
		c.disappeared(dir)
	}
	for name := range dw.files {
		c.disappeared(filepath.Join(dir, name))
	}
}

func (w *Watcher) dropOne(dir string) {
	if dw := w.dirs[dir]; dw != nil {
		w.fds.used -= dw.cost
	}
	delete(w.dirs, dir)
	w.publish()
	if parent := w.dirs[filepath.Dir(dir)]; parent != nil {
		delete(parent.children, dir)
	}
	// The kernel drops the watch of a deleted directory by itself, so an error here is expected then.
	if err := w.k.Remove(dir); err != nil {
		w.log.Debug("removing watch", "dir", dir, "err", err)
	}
}

// rescan re-walks every root after lost events: it re-adds every watch (directories may have been replaced)
// and drops the watches of directories that are gone. It clears degraded mode if every Add succeeded.
func (w *Watcher) rescan() {
	w.walking.Store(true) // see Feed.Sync
	defer w.walking.Store(false)
	prev := w.degraded
	w.degraded = ""
	clear(w.fds.dirs) // the walk polls again what still doesn't fit
	w.fds.order, w.fds.next = nil, 0
	w.publish()
	seen := make(set)
	for p, isFile := range w.roots {
		if err := w.addRoot(p, isFile, seen); err != nil {
			w.log.Warn("rescanning root", "root", p, "err", err)
		}
	}
	for d := range w.dirs {
		if _, ok := seen[d]; !ok {
			w.dropOne(d)
		}
	}
	if prev != "" && w.degraded == "" {
		w.log.Info("file watching no longer degraded", "watches", len(w.dirs))
	}
}
