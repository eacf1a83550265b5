package scan

import (
	"context"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/grove-mcp/grove/gittools/internal/gitfmt"
	"github.com/grove-mcp/grove/gittools/internal/repo"
	"github.com/grove-mcp/grove/ignore"
)

// update brings the state from w.idx and the worktree at the previous Sync to idx and the worktree now,
// given the paths that changed in between (rels). A path is re-examined as a whole: its index entry and
// every entry below it (the Y column), and the untracked listing of its region (see region).
func (w *Warm) update(rp *repo.Repo, ctx context.Context, idx *gitfmt.Index, rels []string) error {
	old := w.idx
	if idx != old {
		rels = append(rels, diffIndex(old, idx)...)
	}
	if len(rels) > maxWarmPaths(idx) {
		return errFallback
	}
	m, err := ignoreMatcher(rp)
	if err != nil {
		return err
	}
	u := &warmUpdate{w: w, rp: rp, ctx: ctx, idx: idx, old: old, m: m, oldDirs: old.Dirs(), dirs: idx.Dirs(),
		st: newStatter(rp), dirOK: map[string]bool{".": true}}
	defer u.st.close()
	for i, rel := range rels {
		if i%256 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		u.tracked(rel)
	}
	if err := u.untracked(rels); err != nil {
		return err
	}
	w.idx = idx
	if len(u.entered) > 0 && !w.feed.Cover(absDirs(rp, u.entered)) {
		w.valid = false // this answer is right, but a directory just watched may change unseen until now
	}
	return nil
}

// warmUpdate is the state of one update.
type warmUpdate struct {
	w         *Warm
	rp        *repo.Repo
	ctx       context.Context
	idx, old  *gitfmt.Index
	m         *ignore.Matcher
	oldDirs   map[string]bool
	dirs      map[string]bool
	st        *statter
	dirOK     map[string]bool // see statter.realDir
	entered   []string        // tracked directories listed, to be covered by the feed
	evaluated map[string]bool // edges probed by this update
}

// tracked recomputes the Y column of rel and of every index entry below it.
func (u *warmUpdate) tracked(rel string) {
	changed := u.w.changed
	delete(changed, rel)
	lo, hi := u.old.PrefixRange(rel)
	for i := lo; i < hi; i++ {
		delete(changed, u.old.Entries[i].Name)
	}
	if i, ok := u.idx.Find(rel); ok {
		u.compare(i)
	}
	lo, hi = u.idx.PrefixRange(rel)
	for i := lo; i < hi; i++ {
		delete(changed, u.idx.Entries[i].Name)
		u.compare(i)
	}
}

// compare sets the Y column of index entry i from the worktree now.
func (u *warmUpdate) compare(i int) {
	if !worktreeEntry(u.idx, 0, i) {
		return
	}
	e := u.idx.Entries[i]
	var info fs.FileInfo
	if u.st.realDir(path.Dir(e.Name), u.dirOK) {
		info, _ = u.st.lstat(e.Name)
	}
	if c := compareTracked(u.rp, u.ctx, e, info, u.idx); c != 0 {
		u.w.changed[e.Name] = c
	}
}

// untracked re-lists the untracked files of the regions of rels, then probes every other edge again.
func (u *warmUpdate) untracked(rels []string) error {
	regions := u.regions(rels)
	for _, r := range regions {
		u.drop(r)
	}
	if u.anyDir(regions) {
		// A directory moved in may bring a .gitignore without an event of its own, under a name whose
		// rules the matcher has cached.
		invalidateMatcher(u.rp)
	}
	u.evaluated = map[string]bool{}
	for i, r := range regions {
		if i%256 == 0 {
			if err := u.ctx.Err(); err != nil {
				return err
			}
		}
		if err := u.evaluate(r, 0); err != nil {
			return err
		}
	}
	for d := range u.w.edges {
		if !u.evaluated[d] {
			u.probe(d)
		}
	}
	return nil
}

// regions returns, for each of rels, the top of the part of the tree whose untracked listing it may
// change: its shallowest ancestor (or itself) that holds no tracked file, in the old index or the new
// one, whichever is shallower (staging a file in an untracked directory splits its "dir/" into entries;
// unstaging the last file of a directory collapses them). Regions below another are dropped.
func (u *warmUpdate) regions(rels []string) []string {
	tops := make([]string, 0, len(rels))
	for _, rel := range rels {
		a, b := top(rel, u.oldDirs), top(rel, u.dirs)
		if len(b) < len(a) {
			a = b
		}
		tops = append(tops, a)
	}
	sort.Strings(tops)
	out := tops[:0]
	for _, t := range tops {
		if n := len(out); n > 0 && (out[n-1] == t || strings.HasPrefix(t, out[n-1]+"/")) {
			continue
		}
		out = append(out, t)
	}
	return out
}

// anyDir reports whether a region is, or was, a directory.
func (u *warmUpdate) anyDir(regions []string) bool {
	for _, r := range regions {
		if u.oldDirs[r] || u.dirs[r] {
			return true
		}
		if info, err := u.st.lstat(r); err == nil && info.IsDir() {
			return true
		}
	}
	return false
}

// top returns the shallowest ancestor of p, or p itself, that is not in dirs.
func top(p string, dirs map[string]bool) string {
	for i := 0; i < len(p); i++ {
		if p[i] == '/' && !dirs[p[:i]] {
			return p[:i]
		}
	}
	return p
}

// drop forgets the untracked entries and edges at or below region r.
func (u *warmUpdate) drop(r string) {
	w := u.w
	delete(w.untracked, r)
	delete(w.untracked, r+"/")
	delete(w.edges, r)
	if !u.oldDirs[r] && !u.dirs[r] {
		return // nothing below r was listed on its own
	}
	for p := range w.untracked {
		if strings.HasPrefix(p, r+"/") {
			delete(w.untracked, p)
		}
	}
	for p := range w.edges {
		if strings.HasPrefix(p, r+"/") {
			delete(w.edges, p)
		}
	}
}

// maxWarmDepth bounds the recursion of evaluate; deeper trees get a full scan.
const maxWarmDepth = 256

// evaluate lists the untracked files of region r as the full scan would: r itself, or, when r holds
// tracked files, what its directories hold.
func (u *warmUpdate) evaluate(r string, depth int) error {
	if depth > maxWarmDepth {
		return errFallback
	}
	if parent := path.Dir(r); !u.st.realDir(parent, u.dirOK) {
		return nil // below a symlink or a file: the walk never gets there
	}
	info, err := u.st.lstat(r)
	if err != nil {
		return nil
	}
	if !info.IsDir() {
		u.file(r, info.Mode())
		return nil
	}
	if !u.dirs[r] {
		u.dir(r)
		return nil
	}
	return u.walk(r, depth)
}

// walk lists the tracked directory r, which exists.
func (u *warmUpdate) walk(r string, depth int) error {
	u.entered = append(u.entered, r)
	f, err := u.rp.Loc.FS().Open(u.rp.Loc.Join(r).Name())
	if err != nil {
		return nil // unreadable: skipped, as the walk does
	}
	ents, err := f.ReadDir(-1)
	f.Close()
	if err != nil {
		return nil
	}
	for _, e := range ents {
		if e.Name() == ".git" {
			continue
		}
		child := r + "/" + e.Name()
		switch {
		case e.IsDir() && u.dirs[child]:
			if err := u.walk(child, depth+1); err != nil {
				return err
			}
		case e.IsDir():
			u.dir(child)
		default:
			u.file(child, e.Type())
		}
	}
	return nil
}

// file lists p, an entry that is not a directory, if it is an untracked, non-ignored file or symlink.
func (u *warmUpdate) file(p string, mode fs.FileMode) {
	if !mode.IsRegular() && mode&fs.ModeSymlink == 0 {
		return
	}
	if _, tracked := u.idx.Find(p); tracked || u.m.Ignored(p, false) {
		return
	}
	u.w.untracked[p] = true
}

// dir handles p, a directory holding no tracked file: an edge, unless ignored or tracked as a file or
// submodule.
func (u *warmUpdate) dir(p string) {
	if u.m.Ignored(p, true) {
		return
	}
	if _, ok := u.idx.Find(p); ok {
		return // see dirKind
	}
	u.probe(p)
}

// probe decides whether the edge p is listed, looking for a non-ignored file below it.
func (u *warmUpdate) probe(p string) {
	u.evaluated[p] = true
	listed := dirHasFiles(u.rp, u.m, p, 0)
	u.w.edges[p] = listed
	if listed {
		u.w.untracked[p+"/"] = true
	} else {
		delete(u.w.untracked, p+"/")
	}
}
