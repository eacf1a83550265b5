package watch

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/fsnotify/fsnotify"
)

// handle applies one fsnotify event to the watch set and records it in c. Called on the run goroutine
// with the lock held.
func (w *Watcher) handle(ev fsnotify.Event, c *changes) {
	p := filepath.Clean(ev.Name)
	w.record(p) // feeds see every event, attribute changes included (a chmod +x changes git status)
	ops := eventOps{created: ev.Has(fsnotify.Create), gone: ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename)}
	if dw := w.dirs[filepath.Dir(p)]; dw != nil && filepath.Dir(p) != p {
		w.grow(dw, ops)
	}
	if w.fds.files[p] {
		w.fileEvent(p, ops, ev.Has(fsnotify.Write), c)
		return
	}
	if ev.Op&^fsnotify.Chmod == 0 {
		return // attributes only (chmod, touch): the content is the same
	}
	_, wasDir := w.dirs[p]
	if wasDir && (ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename)) {
		// Renamed or removed: the kernel drops (or keeps, under a stale path) the watches below; a
		// directory renamed within the roots comes back as a Create and is walked again.
		w.dropTree(p, c)
	}
	dir := filepath.Dir(p)
	parent := w.dirs[dir]
	switch {
	case parent == nil || dir == p:
		// A watched directory's own event (a root removed or renamed away): dropTree reported it.
	case parent.worktree != "":
		w.handleGit(p, parent, ev, c)
	case filepath.Base(p) == ".git":
		if parent.tree && ev.Has(fsnotify.Create) && isDir(p) {
			wk := walker{w: w, c: c}
			wk.git(p, dir) // git init, clone
		}
	default:
		w.handleEntry(p, parent, ev, wasDir, c)
	}
}

// handleEntry records an event on an entry of a tree directory or a single-file root's directory.
func (w *Watcher) handleEntry(p string, parent *dirWatch, ev fsnotify.Event, wasDir bool, c *changes) {
	created := ev.Has(fsnotify.Create)
	dir := wasDir
	if created {
		dir = isDir(p)
	}
	_, polled := w.polled[p]
	if !polled && !parent.files[filepath.Base(p)] && (!parent.tree || w.ignored(p, dir)) {
		return
	}
	if created {
		c.appeared(p)
	}
	if ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename) {
		c.disappeared(p)
	}
	if ev.Has(fsnotify.Write) {
		c.changed.add(p)
	}
	if created && dir && parent.tree {
		// Entries made between mkdir and the new watch produce no event: the walk reports them.
		wk := walker{w: w, c: c}
		if err := wk.walk(p); err != nil {
			w.log.Debug("scanning new directory", "dir", p, "err", err)
		}
	}
}

// handleGit turns an event in .git or below .git/refs into Batch.Git. Other files in .git (objects,
// logs, FETCH_HEAD, *.lock) don't change what status or log return.
func (w *Watcher) handleGit(p string, parent *dirWatch, ev fsnotify.Event, c *changes) {
	name := filepath.Base(p)
	if strings.HasSuffix(name, ".lock") {
		return
	}
	if !parent.refs && name != "index" && name != "HEAD" && name != "packed-refs" && name != "refs" {
		return
	}
	if ev.Has(fsnotify.Create) && (parent.refs || name == "refs") && isDir(p) {
		wk := walker{w: w}
		wk.refs(p, parent.worktree)
	}
	c.git.add(parent.worktree)
}

// isDir reports whether p is a directory, not following symlinks.
func isDir(p string) bool {
	fi, err := os.Lstat(p)
	return err == nil && fi.IsDir()
}
