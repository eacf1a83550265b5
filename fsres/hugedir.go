package fsres

import (
	"context"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/grove-mcp/grove/fsres/internal/dirstream"
	"github.com/grove-mcp/grove/fsres/internal/stamp"
	"github.com/grove-mcp/grove/ignore"
	"github.com/grove-mcp/grove/roots"
)

// Huge directories are listed in the file system's order.
//
// resources/list shows a tree depth first, each directory's entries sorted
// by name; but the smallest names of a directory are known only once all of
// it is read, so the first page of a directory of 200,000 files would cost
// the whole directory. So a huge directory is listed in the order getdents64
// gives (on Linux; elsewhere every directory is sorted): its first page reads
// about a page of entries, and each next page goes on from the d_off the
// cursor records (a fresh descriptor of the directory, opened through the
// root, lseek'd there). Subdirectories met on the way are walked depth first
// as in a sorted listing, each sorted or streamed by its own size.
//
// A directory is huge when its listing does not end within its first
// hugeEntries entries; one whose size (st_size) is below hugeMinSize is taken
// as small without reading it (on ext4, tmpfs, btrfs and xfs a directory of
// more than 4,096 entries is larger than that, but for names of a few bytes
// on ext4). Tests lower both. The mode a directory is listed in is decided when the listing
// first enters it, and a cursor keeps it: a directory that grows or shrinks
// between pages keeps the order it started in, so every entry present for
// the whole listing is listed exactly once. Filters (.gitignore, .git,
// symlinks, special files, other roots) are those of the sorted listing.
var (
	hugeEntries       = 4096
	hugeMinSize int64 = 64 << 10
)

// hugeDir reports whether directory rel of the root r is huge, given info,
// its lstat data.
func hugeDir(r *os.Root, rel string, info fs.FileInfo) bool {
	if !dirstream.Supported || info == nil || !info.IsDir() || info.Size() < hugeMinSize {
		return false
	}
	dir := r
	if rel != "." {
		d, err := r.OpenRoot(filepath.FromSlash(rel))
		if err != nil {
			return false
		}
		defer d.Close()
		dir = d
	}
	return dirstream.MoreThan(dir, hugeEntries)
}

// Modes of a directory in a listing.
const (
	modeUnknown  = iota // entered fresh: decided by its size
	modeSorted          // by name
	modeStreamed        // in getdents order
)

// streamWalk lists a page from a streamed directory of one root: the
// directory, and the rest of the cursor's position inside it.
type streamWalk struct {
	ctx   context.Context
	m     *ignore.Matcher
	fsys  *os.Root // the root's top
	root  roots.Root
	index int
	multi bool
	inner map[string]bool  // other roots inside this one
	last  string           // the cursor's path: the walk resumes after it
	offs  map[string]int64 // the cursor's streamed directories
	need  int              // files wanted
	out   []listed
	stack []frame // the streamed directories being walked, outermost first
	arena []frame // holds the copies of stack the files listed keep
	seen  int     // entries looked at, for cancellation
}

func newStreamWalk(ctx context.Context, m *ignore.Matcher, base roots.Loc, root roots.Root, index int, multi bool, inner map[string]bool, last string, streams []frame, need int) *streamWalk {
	w := &streamWalk{ctx: ctx, m: m, fsys: base.FS(), root: root, index: index, multi: multi, inner: inner, last: last, need: need}
	w.out = make([]listed, 0, min(need, 1<<12))
	w.arena = make([]frame, 0, min(need, 1<<12))
	w.offs = make(map[string]int64, len(streams))
	for _, fr := range streams {
		w.offs[fr.dir] = fr.off
	}
	return w
}

// dir walks the directory rel, a non-ignored directory of the root, depth
// first in mode (or, resuming inside it, in the mode the cursor says). full
// says the page is full.
func (w *streamWalk) dir(rel string, mode int) (full bool, err error) {
	dirFS := w.fsys
	if rel != "." {
		d, err := w.fsys.OpenRoot(filepath.FromSlash(rel))
		if err != nil {
			return false, nil // gone, or unreadable: nothing left in it
		}
		defer d.Close()
		dirFS = d
	}
	var off int64
	child := "" // resuming: the name under rel on the cursor's path
	if w.last != "" && isAncestor(rel, w.last) {
		var streamed bool
		off, streamed = w.offs[rel]
		mode = modeSorted
		if streamed {
			mode = modeStreamed
		}
		child, _, _ = strings.Cut(relTo(rel, w.last), "/")
		if join(rel, child) != w.last {
			// Finish the subdirectory the cursor is in first.
			if mode == modeStreamed {
				w.stack = append(w.stack, frame{dir: rel, off: off})
			}
			full, err := w.resumeSub(dirFS, rel, child)
			if mode == modeStreamed {
				w.stack = w.stack[:len(w.stack)-1]
			}
			if full || err != nil {
				return full, err
			}
		}
	}
	rd, err := dirstream.Open(dirFS, off, w.need-len(w.out))
	if err != nil {
		return false, nil
	}
	defer rd.Close()
	if mode == modeUnknown {
		mode = modeSorted
		if len(w.stack) < maxFrames {
			for len(rd.Entries) <= hugeEntries && rd.More() {
			}
			if len(rd.Entries) > hugeEntries {
				mode = modeStreamed
			}
		}
	}
	if mode == modeSorted {
		for rd.More() {
		}
		slices.SortFunc(rd.Entries, func(a, b dirstream.Entry) int { return strings.Compare(a.Name, b.Name) })
		for _, e := range rd.Entries {
			if child != "" && e.Name <= child {
				continue
			}
			if full, err := w.entry(rd, rel, e); full || err != nil {
				return full, err
			}
		}
		return false, nil
	}
	w.stack = append(w.stack, frame{dir: rel, off: off})
	defer func() { w.stack = w.stack[:len(w.stack)-1] }()
	top := len(w.stack) - 1
	for {
		for i := range rd.Entries {
			e := rd.Entries[i]
			w.stack[top].off = e.Off
			if e.Off <= 0 {
				// No position to go on from (no file system grove knows
				// does this): a cursor that starts the directory again
				// would list it for ever, so one ends it instead.
				w.stack[top].off = math.MaxInt64
			}
			if full, err := w.entry(rd, rel, e); full || err != nil {
				return full, err
			}
		}
		rd.Entries = rd.Entries[:0]
		if !rd.More() {
			return false, nil
		}
	}
}

// resumeSub goes on inside child, the subdirectory of rel on the cursor's
// path, if it is still a directory the listing enters.
func (w *streamWalk) resumeSub(dirFS *os.Root, rel, child string) (bool, error) {
	crel := join(rel, child)
	info, err := dirFS.Lstat(child)
	if err != nil || !info.IsDir() || child == ".git" || w.inner[crel] || w.m.Ignored(crel, true) {
		return false, nil
	}
	return w.dir(crel, modeUnknown)
}

// entry lists the entry e of directory rel (listed by rd)
// as the sorted listing does: a regular file, or a symlink leading to a
// regular file inside the root, is listed; a directory is walked; .git,
// other roots, ignored paths and anything else are left out.
func (w *streamWalk) entry(rd *dirstream.Dir, rel string, e dirstream.Entry) (bool, error) {
	if w.seen++; w.seen%256 == 0 {
		if err := w.ctx.Err(); err != nil {
			return false, err
		}
	}
	if e.Name == ".git" || strings.ContainsRune(e.Name, '/') {
		return false, nil
	}
	erel := join(rel, e.Name)
	if w.inner[erel] {
		return false, nil
	}
	typ, stated := e.Type, false
	var size int64
	var mtime time.Time
	if !e.Known {
		var err error
		if typ, size, mtime, err = rd.Lstat(e.Name); err != nil {
			return false, nil // gone since
		}
		stated = true
	}
	isDir := typ.IsDir()
	if !isDir && !typ.IsRegular() && typ&fs.ModeSymlink == 0 {
		return false, nil
	}
	if w.m.Ignored(erel, isDir) {
		return false, nil
	}
	if isDir {
		return w.dir(erel, modeUnknown)
	}
	if typ&fs.ModeSymlink != 0 {
		info, err := w.fsys.Stat(filepath.FromSlash(erel)) // os.Root: never leaves the root
		if err != nil || !info.Mode().IsRegular() {
			return false, nil
		}
		typ, size, mtime, stated = 0, info.Size(), info.ModTime(), true
	}
	if !stated {
		var err error
		if typ, size, mtime, err = rd.Lstat(e.Name); err != nil || !typ.IsRegular() {
			return false, nil // gone, or no longer a file
		}
	}
	n := len(w.arena)
	w.arena = append(w.arena, w.stack...) // copies kept in one array, not one each
	streams := w.arena[n:len(w.arena):len(w.arena)]
	w.out = append(w.out, listed{res: resourceOf(w.root, erel, w.multi, size, mtime), root: w.index, rel: erel, streams: streams})
	return len(w.out) >= w.need, nil
}

// join is the path of name in the directory rel ("." for the root's top).
func join(rel, name string) string {
	if rel == "." {
		return name
	}
	return rel + "/" + name
}

// maxRuleStamps bounds Files.rules; past it, it starts again empty.
const maxRuleStamps = 4096

// freshRules makes sure the rules a streamed walk of root r (open as fsys)
// reads from m's cache are those on disk: the sorted walk re-reads every
// .gitignore it meets, the streamed one asks m. dirs are the directories
// whose .gitignore decides the walk's entries (the root's top, the streamed
// directory and those on the cursor's path). If one of them, or the root's
// .git/index or .git/info/exclude, changed since a page last looked, m drops
// its caches. (A rule file seen for the first time is taken as cached; the
// watcher's [Files.Invalidate] covers changes made before that.)
func (f *Files) freshRules(m *ignore.Matcher, fsys *os.Root, r roots.Root, dirs []string) {
	names := []string{".git/index", ".git/info/exclude"}
	for _, d := range dirs {
		names = append(names, join(d, ".gitignore"))
	}
	now := make([]stamp.Stamp, len(names))
	for i, name := range names {
		now[i] = stamp.At(fsys, name)
	}
	f.mu.Lock()
	changed := false
	if f.rules == nil || len(f.rules)+len(names) > maxRuleStamps {
		f.rules = make(map[string]stamp.Stamp)
	}
	for i, name := range names {
		key := r.Path + "\x00" + name
		if old, ok := f.rules[key]; ok && old != now[i] {
			changed = true
		}
		f.rules[key] = now[i]
	}
	f.mu.Unlock()
	if changed {
		m.Invalidate()
	}
}

// ruleDirs are the directories whose .gitignore decides a streamed walk of
// top resumed after last: top, its ancestors, and the directories between it
// and last.
func ruleDirs(top, last string) []string {
	p := top
	if last != "" && isAncestor(top, last) {
		p = parentRel(last)
	}
	dirs := []string{"."}
	for i := 0; i < len(p); i++ {
		if p[i] == '/' {
			dirs = append(dirs, p[:i])
		}
	}
	if p != "." {
		dirs = append(dirs, p)
	}
	return dirs
}
