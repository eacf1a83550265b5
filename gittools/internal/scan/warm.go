package scan

import (
	"context"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"strings"

	"github.com/grove-mcp/grove/gittools/internal/gitfmt"
	"github.com/grove-mcp/grove/gittools/internal/repo"
	"github.com/grove-mcp/grove/internal/gcburst"
)

// Feed is what warm status needs from a file watcher: the server adapts its watcher to it (see
// gittools.WorktreeChanges, which has the same methods).
type Feed interface {
	// Sync returns the absolute paths below the worktree that had an event since the previous Sync,
	// including every change made before the call. lost reports that events may have been missed.
	Sync(ctx context.Context) (paths []string, lost bool, err error)
	// Cover makes sure the absolute directories are watched and reports whether all of them were already.
	Cover(dirs []string) bool
}

// Warm keeps one repository's worktree comparison between statuses, so that a status re-examines only
// the paths the feed reports as changed (what git's fsmonitor does). It falls back to a full scan, and
// starts keeping state afresh, whenever it cannot vouch for the state: first use, lost events, a
// directory it depends on not watched, the ignore rules changed (a .gitignore, info/exclude, config),
// too many changes at once, or an error in the middle of an update. Not safe for concurrent use: the
// caller holds the repository's lock.
//
//	w := scan.NewWarm(feed)
//	res, err := w.Worktree(rp, ctx, idx, progress) // as scan.Worktree(rp, ctx, idx, true, progress)
type Warm struct {
	feed Feed

	valid     bool // the fields below are right as of the last Sync, and every directory they depend on is watched
	idx       *gitfmt.Index
	changed   map[string]byte // Result.Changed
	untracked map[string]bool // Result.Untracked
	// edges are the untracked directories whose parent holds tracked files (listed or not: empty, or
	// wholly ignored). They are probed again on every status rather than watched all the way down.
	edges  map[string]bool
	ignore ignoreStamp
	full   bool
	staged *stagedState // see Staged
}

// NewWarm returns an empty state fed by feed; its first Worktree scans fully.
func NewWarm(feed Feed) *Warm { return &Warm{feed: feed} }

// Valid reports whether the state is kept: the next Worktree call re-examines only what the feed reports.
func (w *Warm) Valid() bool { return w.valid }

// Full reports whether the last Worktree call scanned the whole worktree.
func (w *Warm) Full() bool { return w.full }

// errFallback makes an update give way to a full scan.
var errFallback = errors.New("warm status: full scan needed")

// Worktree is [Worktree] with untracked files, incremental when the feed allows it.
func (w *Warm) Worktree(rp *repo.Repo, ctx context.Context, idx *gitfmt.Index, progress func(int)) (*Result, error) {
	return w.WorktreeWith(rp, ctx, idx, nil, progress)
}

// WorktreeWith is Worktree that takes the tracked files' stat data from pre if it scans fully (a caller
// starts one when the state is not Valid: see Preload).
func (w *Warm) WorktreeWith(rp *repo.Repo, ctx context.Context, idx *gitfmt.Index, pre *Preload, progress func(int)) (*Result, error) {
	paths, lost, err := w.feed.Sync(ctx)
	if err != nil {
		return nil, err
	}
	if st := readIgnoreStamp(rp); st != w.ignore {
		w.ignore, lost = st, true
		invalidateMatcher(rp)
	}
	rels, ok := w.relPaths(rp, paths, idx)
	if !ok {
		invalidateMatcher(rp) // a .gitignore changed: its cached rules are stale
	}
	if w.valid && !lost && ok {
		err := w.update(rp, ctx, idx, rels)
		if err == nil {
			w.full = false
			return w.result(), nil
		}
		w.valid = false
		if !errors.Is(err, errFallback) {
			return nil, err
		}
	}
	return w.scanAll(rp, ctx, idx, pre, progress)
}

// maxWarmPaths is how many changed paths an update takes on; past it a full scan is cheaper.
func maxWarmPaths(idx *gitfmt.Index) int { return max(4096, len(idx.Entries)/4) }

// relPaths turns the feed's paths into slash paths relative to the worktree, dropping those in .git
// (index, HEAD and refs are checked by their stat data). ok is false when a full scan is needed: the
// worktree itself changed, a .gitignore did, or there are too many.
func (w *Warm) relPaths(rp *repo.Repo, paths []string, idx *gitfmt.Index) (rels []string, ok bool) {
	if len(paths) > maxWarmPaths(idx) {
		return nil, false
	}
	prefix := rp.Worktree + string(filepath.Separator)
	for _, p := range paths {
		rel, in := strings.CutPrefix(p, prefix)
		if !in {
			if p == rp.Worktree {
				return nil, false
			}
			continue
		}
		rel = filepath.ToSlash(rel)
		if rel == ".git" || strings.HasPrefix(rel, ".git/") {
			continue
		}
		if rel == ".gitignore" || strings.HasSuffix(rel, "/.gitignore") {
			return nil, false
		}
		rels = append(rels, rel)
	}
	return rels, true
}

// scanAll is the full scan: [Worktree] with untracked files, keeping the state for the next call.
func (w *Warm) scanAll(rp *repo.Repo, ctx context.Context, idx *gitfmt.Index, pre *Preload, progress func(int)) (*Result, error) {
	w.valid, w.full = false, true
	defer gcburst.Relax()()
	m, err := walkMatcher(rp, idx)
	if err != nil {
		return nil, err
	}
	pre = pre.of(idx)
	var known []bool
	if pre == nil {
		known = make([]bool, len(idx.Entries))
	}
	list, entered, edges, err := scanUntrackedEdges(rp, ctx, idx, m, known, progress)
	if err != nil {
		return nil, err
	}
	if pre != nil {
		if known, err = pre.Wait(); err != nil {
			return nil, err
		}
	}
	s, err := scanRange(rp, ctx, idx, 0, len(idx.Entries), known)
	if err != nil {
		return nil, err
	}
	s.Untracked = list
	w.idx, w.changed, w.edges = idx, maps.Clone(s.Changed), edges
	w.untracked = make(map[string]bool, len(list))
	for _, p := range list {
		w.untracked[p] = true
	}
	// Only now, after listing them: a directory not watched during the scan may have changed unseen,
	// so the state is kept only if every one was watched all along.
	w.valid = w.feed.Cover(absDirs(rp, entered))
	return s, nil
}

// result copies the state into a Result.
func (w *Warm) result() *Result {
	r := &Result{Changed: maps.Clone(w.changed), Untracked: make([]string, 0, len(w.untracked))}
	for p := range w.untracked {
		r.Untracked = append(r.Untracked, p)
	}
	return r
}

func absDirs(rp *repo.Repo, rels []string) []string {
	out := make([]string, len(rels))
	for i, rel := range rels {
		out[i] = filepath.Join(rp.Worktree, filepath.FromSlash(rel))
	}
	return out
}

func invalidateMatcher(rp *repo.Repo) {
	if rp.Matcher != nil {
		rp.Matcher.Invalidate()
	}
}

// ignoreStamp is the stat data of the files the ignore rules come from besides the .gitignore files,
// which the feed reports: .git/info/exclude, the repository's config and the global ones (which may name
// core.excludesFile), the default global excludes file, and the core.excludesFile the rules were read from.
type ignoreStamp [6]fileStamp

type fileStamp struct {
	mtime, size int64
	ino         uint64
}

func readIgnoreStamp(rp *repo.Repo) ignoreStamp {
	home, _ := os.UserHomeDir()
	xdg := os.Getenv("XDG_CONFIG_HOME")
	if xdg == "" && home != "" {
		xdg = filepath.Join(home, ".config")
	}
	excludes := ""
	if rp.Matcher != nil {
		excludes = rp.Matcher.ExcludesFile()
	}
	var st ignoreStamp
	for i, name := range []string{filepath.Join("info", "exclude"), "config"} { // the repository's, through its handle
		if fi, err := rp.CommonRoot().Stat(name); err == nil {
			st[i] = fileStamp{mtime: fi.ModTime().UnixNano(), size: fi.Size(), ino: repo.Inode(fi)}
		}
	}
	for i, name := range []string{
		"", "", // the repository's, above
		filepath.Join(xdg, "git", "config"),
		filepath.Join(home, ".gitconfig"),
		filepath.Join(xdg, "git", "ignore"),
		excludes,
	} {
		if !filepath.IsAbs(name) {
			continue // no home directory
		}
		if fi, err := os.Stat(name); err == nil {
			st[i] = fileStamp{mtime: fi.ModTime().UnixNano(), size: fi.Size(), ino: repo.Inode(fi)}
		}
	}
	return st
}
