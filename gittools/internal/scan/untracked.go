package scan

import (
	"context"
	"io/fs"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/grove-mcp/grove/gittools/internal/repo"

	"github.com/grove-mcp/grove/gittools/internal/gitfmt"

	"github.com/grove-mcp/grove/ignore"
)

// scanUntracked lists the untracked files, and directories as "dir/", in no particular order, and sets
// known[i] for each index entry i it proves clean (none when known is nil: a Preload does that). The walk
// runs on walkWorkers goroutines besides the caller's: each entry, hence each known[i], is seen once, and
// the rest is guarded.
func scanUntracked(rp *repo.Repo, ctx context.Context, idx *gitfmt.Index, m *ignore.Matcher, known []bool, progress func(int)) ([]string, error) {
	u := &untrackedScan{rp: rp, idx: idx, m: m, dirs: idx.Dirs(), files: filesByDir(idx), known: known, progress: progress}
	err := m.WalkParallel(ctx, walkWorkers, u.visit)
	return u.list, err
}

// scanUntrackedEdges is scanUntracked that also returns what warm status keeps: the directories the walk
// entered (those holding tracked files, the worktree's "" included) and the untracked directories at
// their edge (whether listed or not, because empty or wholly ignored).
func scanUntrackedEdges(rp *repo.Repo, ctx context.Context, idx *gitfmt.Index, m *ignore.Matcher, known []bool, progress func(int)) (list, entered []string, edges map[string]bool, err error) {
	u := &untrackedScan{rp: rp, idx: idx, m: m, dirs: idx.Dirs(), files: filesByDir(idx), known: known, progress: progress,
		entered: []string{""}, edges: map[string]bool{}}
	err = m.WalkParallel(ctx, walkWorkers, u.visit)
	return u.list, u.entered, u.edges, err
}

// walkWorkers is how many goroutines help the untracked walk, which lists every directory and lstats every
// tracked file: two per core with the caller's, at most 16. A directory goes to a helper only when one is idle,
// so more goroutines than cores keep the cores busy while a helper finishes a subtree (on 2 cores, wide repo:
// 1 helper 96-102 ms a status, 3 helpers 79-84 ms).
var walkWorkers = min(2*runtime.GOMAXPROCS(0), 16) - 1

// untrackedScan is the state of scanUntracked.
type untrackedScan struct {
	rp       *repo.Repo
	idx      *gitfmt.Index
	m        *ignore.Matcher
	dirs     map[string]bool
	files    map[string]*dirFiles // see filesByDir
	known    []bool
	progress func(int)
	n        atomic.Int64

	mu      sync.Mutex // guards the fields below
	list    []string
	sent    int64           // the last progress reported, so that reports only grow
	entered []string        // when not nil: directories entered (see scanUntrackedEdges)
	edges   map[string]bool // when not nil: untracked directories met -> listed
}

// visit is the walk's callback.
func (u *untrackedScan) visit(rel string, d fs.DirEntry) error {
	if u.progress != nil { // a counter all the walk's goroutines write: only when someone reads it
		if c := u.n.Add(1); c%progressEvery == 0 {
			u.report(c)
		}
	}
	if d.IsDir() {
		kind := dirKind(u.rp, u.idx, u.m, u.dirs, rel)
		if kind == dirListed {
			u.add(rel + "/")
		}
		u.note(rel, kind)
		if kind == dirTracked {
			return nil
		}
		return fs.SkipDir
	}
	if t := d.Type(); !t.IsRegular() && t&fs.ModeSymlink == 0 {
		return nil
	}
	i, tracked := u.find(rel)
	switch {
	case !tracked:
		u.add(rel)
	case u.known != nil && worktreeEntry(u.idx, 0, i) && walkedClean(d, &u.idx.Entries[i], u.idx):
		u.known[i] = true
	}
	return nil
}

// span is a range [lo, hi) of index positions.
type span struct{ lo, hi int }

// dirFiles is where a directory's files lie in the index (see filesByDir), with a cursor for the walk,
// which meets a directory's files in name order: each lookup goes on from where the previous one stopped
// (what sort.Find's search of the span, a few string comparisons per file, cost on 50,000 files was a
// twentieth of a first status). One goroutine walks a directory, so its cursor needs no lock.
type dirFiles struct {
	span
	next int // every entry in [lo, next) sorts before the last name looked up
}

// filesByDir maps each directory holding tracked files ("" for the top) to the index positions its files
// lie within (with those of its subdirectories that sort among them), so that the walk looks each file it
// meets up among its directory's few entries (find): a search of the whole index for each of 50,000 files
// was a tenth of a first status. The map costs a lookup per run of entries of one directory, not per entry.
func filesByDir(idx *gitfmt.Index) map[string]*dirFiles {
	out := map[string]*dirFiles{}
	prev, lo := "", -1
	flush := func(hi int) {
		if lo < 0 {
			return
		}
		if df, ok := out[prev]; ok {
			df.hi = hi
		} else {
			out[prev] = &dirFiles{span: span{lo, hi}, next: lo}
		}
	}
	for i, e := range idx.Entries {
		dir := ""
		if k := strings.LastIndexByte(e.Name, '/'); k >= 0 {
			dir = e.Name[:k]
		}
		if dir != prev || lo < 0 {
			flush(i)
			prev, lo = dir, i
		}
	}
	flush(len(idx.Entries))
	return out
}

// find is idx.Find for a path the walk met. A name that does not sort after the previous one of its
// directory (a walk out of order) is searched for, leaving the cursor where it was.
func (u *untrackedScan) find(rel string) (int, bool) {
	dir := ""
	if k := strings.LastIndexByte(rel, '/'); k >= 0 {
		dir = rel[:k]
	}
	df, ok := u.files[dir]
	if !ok {
		return 0, false
	}
	es := u.idx.Entries
	if df.next > df.lo && es[df.next-1].Name >= rel {
		i, found := sort.Find(df.hi-df.lo, func(i int) int { return strings.Compare(rel, es[df.lo+i].Name) })
		return df.lo + i, found
	}
	for df.next < df.hi && es[df.next].Name < rel {
		df.next++
	}
	return df.next, df.next < df.hi && es[df.next].Name == rel
}

func (u *untrackedScan) add(found ...string) {
	if len(found) == 0 {
		return
	}
	u.mu.Lock()
	u.list = append(u.list, found...)
	u.mu.Unlock()
}

// note records a directory for scanUntrackedEdges.
func (u *untrackedScan) note(rel string, kind int) {
	if u.edges == nil || kind == dirSkipped {
		return
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	if kind == dirTracked {
		u.entered = append(u.entered, rel)
		return
	}
	u.edges[rel] = kind == dirListed
}

func (u *untrackedScan) report(c int64) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if c > u.sent {
		u.sent = c
		u.progress(int(c))
	}
}

// ignoreMatcher returns the repository's matcher, built once: its Walk re-reads the .gitignore files it meets
// and re-checks the index by itself; refresh invalidates it when the index changes.
func ignoreMatcher(rp *repo.Repo) (*ignore.Matcher, error) {
	if rp.Matcher == nil {
		rp.Matcher = rp.NewMatcher()
	}
	return rp.Matcher, nil
}

// walkMatcher is ignoreMatcher for a walk against idx: the matcher takes its tracked paths from idx
// rather than parse the same index file again (it checks that the file is the one idx was read from).
func walkMatcher(rp *repo.Repo, idx *gitfmt.Index) (*ignore.Matcher, error) {
	m, err := ignoreMatcher(rp)
	if err == nil && idx.Stat != nil {
		m.SetTracked(idx.Stat, func() []string {
			names := make([]string, len(idx.Entries))
			for i, e := range idx.Entries {
				names[i] = e.Name
			}
			return names
		})
	}
	return m, err
}

// progressEvery is how many walked entries pass between progress notifications.
const progressEvery = 5000

// What the walk does with a directory it meets (not ignored).
const (
	dirSkipped  = iota // a submodule, or a tracked file that is a directory now
	dirTracked         // holds tracked files: entered
	dirListed          // untracked, with a non-ignored file somewhere below: listed as "dir/"
	dirUnlisted        // untracked, empty or wholly ignored: not listed
)

// dirKind decides what the walk does with directory rel.
func dirKind(rp *repo.Repo, idx *gitfmt.Index, m *ignore.Matcher, dirs map[string]bool, rel string) int {
	if _, ok := idx.Find(rel); ok {
		// A submodule (not compared: dirty submodules show clean), or a tracked file that is a directory
		// now: git lists neither it nor what it holds as untracked (only -uall lists its files).
		return dirSkipped
	}
	if dirs[rel] {
		return dirTracked
	}
	if dirHasFiles(rp, m, rel, 0) {
		return dirListed
	}
	return dirUnlisted
}

// maxDirProbe bounds how deep dirHasFiles looks for a non-ignored file in an untracked directory.
const maxDirProbe = 64

// dirHasFiles reports whether the untracked directory rel holds a non-ignored file (git doesn't list empty
// or wholly ignored directories), or is a nested repository.
func dirHasFiles(rp *repo.Repo, m *ignore.Matcher, rel string, depth int) bool {
	if depth > maxDirProbe {
		return false
	}
	f, err := rp.Loc.FS().Open(rp.Loc.Join(rel).Name())
	if err != nil {
		return false
	}
	ents, err := f.ReadDir(-1)
	f.Close()
	if err != nil {
		return false
	}
	for _, e := range ents {
		child := rel + "/" + e.Name()
		switch t := e.Type(); {
		case e.Name() == ".git":
			return true
		case t.IsDir():
			if !m.Ignored(child, true) && dirHasFiles(rp, m, child, depth+1) {
				return true
			}
		case t.IsRegular() || t&fs.ModeSymlink != 0:
			if !m.Ignored(child, false) {
				return true
			}
		}
	}
	return false
}
