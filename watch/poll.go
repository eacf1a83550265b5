package watch

import (
	"io/fs"
	"os"
	"path/filepath"
)

// fileState is what polling compares: existence, size, modification time and identity (a rename over the
// file replaces it with another inode even if size and mtime match).
type fileState struct {
	info  fs.FileInfo // nil: missing
	stale bool        // the file was watched by inotify meanwhile: take a new baseline without reporting
}

// SetPolled sets the files that must be tracked even when inotify can't watch them (the server's
// subscriptions). A file whose directory is watched is reported from events, even if Ignore would hide
// it; a file whose directory is not watched (watch limit reached, or an ignored directory) is stat'ed every
// PollInterval and reported in Changed, Created and Removed. Paths are absolute and should lie inside the
// roots: the Watcher doesn't check.
func (w *Watcher) SetPolled(files []string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	next := make(map[string]*fileState, len(files))
	for _, f := range files {
		f = filepath.Clean(f)
		if st, ok := w.polled[f]; ok {
			next[f] = st
			continue
		}
		next[f] = &fileState{info: w.lstat(f)}
	}
	for f := range w.polled {
		if _, ok := next[f]; !ok {
			w.unwatchFile(f)
		}
	}
	w.polled = next
	for f, st := range next {
		if st.info != nil && !w.watchesFile(f) && w.watchFile(f) {
			st.stale = true
		}
	}
}

// poll stats the polled files the kernel doesn't cover, watching them by themselves where the descriptor
// budget calls for it, and compares the polled directories with their last listing. Called on the run
// goroutine.
func (w *Watcher) poll(c *changes) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for f, st := range w.polled {
		if w.watchesFile(f) {
			st.stale = true
			continue
		}
		now := w.lstat(f)
		if !st.stale {
			compare(f, st.info, now, c)
		}
		st.info, st.stale = now, false
		if now != nil && w.watchFile(f) {
			st.stale = true
		}
	}
	w.pollDirs(c)
}

// watchesFile reports whether events for f arrive from the kernel.
func (w *Watcher) watchesFile(f string) bool {
	dw := w.dirs[filepath.Dir(f)]
	return dw != nil && (dw.tree || dw.files[filepath.Base(f)]) || w.fds.files[f]
}

func compare(f string, was, now fs.FileInfo, c *changes) {
	switch {
	case was == nil && now == nil:
	case was == nil:
		c.appeared(f)
	case now == nil:
		c.disappeared(f)
	case !os.SameFile(was, now):
		c.appeared(f) // replaced, as by an atomic save
	case was.Size() != now.Size() || !was.ModTime().Equal(now.ModTime()) || was.Mode() != now.Mode():
		c.changed.add(f)
	}
}

// lstat describes the polled file f, or returns nil when it is missing or its
// directory is reached through a symlink out of the roots: polling must not
// describe, and so report changes of, a file outside them. w.mu must be held.
func (w *Watcher) lstat(f string) fs.FileInfo {
	dir, err := filepath.EvalSymlinks(filepath.Dir(f))
	if err != nil || !w.inRoots(dir) {
		return nil
	}
	fi, err := os.Lstat(filepath.Join(dir, filepath.Base(f)))
	if err != nil {
		return nil
	}
	return fi
}

// inRoots reports whether the real directory dir may hold watched files: it
// lies in a directory root, or holds a single-file root. w.mu must be held.
func (w *Watcher) inRoots(dir string) bool {
	for r, isFile := range w.roots {
		if isFile && dir == filepath.Dir(r) || !isFile && within(dir, r) {
			return true
		}
	}
	return false
}
