package ignore

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"slices"
	"strings"
)

// Walk visits every non-ignored entry under the matcher's directory in
// lexical order (per directory, as [fs.WalkDir]), never entering .git,
// pruning ignored directories (but still reaching tracked files inside them)
// and never following symlinks, which are reported as entries. fn gets the
// slash-separated path relative to the directory and the entry, whose Info
// works only while fn runs. Returning [fs.SkipDir] from fn skips a directory
// (or, for a file, the rest of its directory); [fs.SkipAll] ends the walk
// without error; another error ends it with that error. Cancelling ctx
// stops the walk with ctx's error. Unreadable directories are skipped.
//
// Walk re-reads the .gitignore files it meets and re-checks .git/index, so
// it reflects the tree as it is now. Nested repositories are entered and
// matched with their own rules.
func (m *Matcher) Walk(ctx context.Context, fn func(rel string, d fs.DirEntry) error) error {
	return m.walk(ctx, fn, 0)
}

// walk is Walk, on up to workers extra goroutines (0: on the caller's only).
func (m *Matcher) walk(ctx context.Context, fn func(rel string, d fs.DirEntry) error, workers int) error {
	root, err := m.openRoot()
	if err != nil {
		return err
	}
	defer root.Close()
	top := m.prefix + "."
	f, err := openDir(root, top)
	if err != nil {
		return err
	}
	entries, err := readDir(f, root, top)
	if err != nil {
		return err
	}
	w := &walker{ctx: ctx, fn: fn, root: &lazyRoot{root: root}, top: len(m.prefix)}
	if workers > 0 {
		var cancel context.CancelFunc
		w.ctx, cancel = context.WithCancel(ctx)
		defer cancel()
		w.par = &parallel{sem: make(chan struct{}, workers), cancel: cancel}
	}
	if w.par != nil {
		err = w.finish(w.treeCaught(m, root, top, entries))
	} else {
		err = w.tree(m, root, top, entries)
	}
	if errors.Is(err, fs.SkipAll) {
		return nil
	}
	return err
}

// walker is the state of one Walk.
type walker struct {
	ctx  context.Context
	fn   func(rel string, d fs.DirEntry) error
	root *lazyRoot // the boundary, for git files
	top  int       // length of the walked matcher's prefix
	par  *parallel // nil: everything on the caller's goroutine
}

// tree walks the worktree of m, whose top directory, reachable as name
// from parent, has been listed.
func (w *walker) tree(m *Matcher, parent *os.Root, name string, entries []fs.DirEntry) error {
	st := m.state(w.root)
	t := m.trackedSet(w.root, st, true)
	node := m.node(w.root, st, nil, "", hintOf(entries, parent, name))
	d := &dirWalk{walker: w, m: m, st: st, t: t, out: m.prefix[w.top:]}
	return d.dir(node, parent, name, entries)
}

// dirWalk walks the directories of one worktree.
type dirWalk struct {
	*walker
	m   *Matcher
	st  *state
	t   *tracked
	out string // prefix of reported paths
}

// dir visits the listed entries of directory node.rel, reachable as name
// from parent, and descends into subdirectories. The directory's own root
// is opened only if it has a subdirectory to enter.
func (d *dirWalk) dir(node *dirNode, parent *os.Root, name string, entries []fs.DirEntry) error {
	if err := d.ctx.Err(); err != nil {
		return err
	}
	var self *sharedRoot
	defer func() {
		self.release()
		closeListing(entries)
	}()
	for _, e := range entries {
		ename := e.Name()
		if ename == ".git" {
			continue
		}
		rel := join(node.rel, ename)
		isDir := e.IsDir()
		if d.ignored(node, rel, ename, isDir) {
			continue
		}
		err := d.fn(d.out+rel, e)
		if errors.Is(err, fs.SkipDir) {
			if isDir {
				continue
			}
			return nil
		}
		if err != nil {
			return err
		}
		if !isDir {
			continue
		}
		if self == nil {
			r, err := parent.OpenRoot(name)
			if err != nil {
				return nil // the directory went away or is unreadable
			}
			self = share(r)
		}
		if err := d.descend(node, self, rel, ename); err != nil {
			return err
		}
	}
	return nil
}

// sub lists and walks subdirectory rel, reachable as name from parent.
func (d *dirWalk) sub(node *dirNode, parent *os.Root, rel, name string) error {
	f, err := openDir(parent, name)
	if err != nil {
		return nil
	}
	entries, err := readDir(f, parent, name)
	if err != nil {
		return nil
	}
	child := d.m.node(d.root, d.st, node, rel, hintOf(entries, parent, name))
	if child.nested != nil {
		return d.tree(child.nested, parent, name, entries)
	}
	return d.dir(child, parent, name, entries)
}

// ignored is Ignored for an entry of a directory being walked.
func (d *dirWalk) ignored(node *dirNode, rel, name string, isDir bool) bool {
	p := node.excl
	if p == nil {
		p = d.st.match(node, rel, name, isDir)
	}
	if p == nil || p.flags&flagNegative != 0 {
		return false
	}
	return !d.t.has(rel) && !(isDir && d.t.hasUnder(rel))
}

// readDir lists the directory open as f (reachable as name from parent)
// sorted by name. It closes f, or hands it to the entries for LstatEntry
// (closeListing closes it then).
func readDir(f *os.File, parent *os.Root, name string) ([]fs.DirEntry, error) {
	entries, err := readDirents(f, parent, name)
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	if err != nil || !keepListing(entries, f) {
		f.Close()
	}
	return entries, err
}

func hintOf(entries []fs.DirEntry, parent *os.Root, name string) *dirHint {
	h := &dirHint{dir: &lazyRoot{root: parent}, name: name}
	for _, e := range entries {
		switch e.Name() {
		case ".gitignore":
			h.hasIgnore = true
		case ".git":
			h.hasGit = true
		}
	}
	return h
}

func join(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}
