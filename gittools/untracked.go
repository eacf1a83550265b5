package gittools

import (
	"context"
	"io/fs"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/grove-mcp/grove/ignore"
)

// scanUntracked lists the untracked files, and directories as "dir/", in no particular order, and sets
// known[i] for each index entry i it proves clean. The walk runs on walkWorkers goroutines besides the
// caller's: each entry, hence each known[i], is seen once, and the rest is guarded.
func (rp *repo) scanUntracked(ctx context.Context, idx *gitIndex, m *ignore.Matcher, known []bool, progress func(int)) ([]string, error) {
	u := &untrackedScan{rp: rp, idx: idx, m: m, dirs: idx.dirs(), known: known, progress: progress}
	err := m.WalkParallel(ctx, walkWorkers, u.visit)
	return u.list, err
}

// walkWorkers is how many goroutines help the untracked walk, which lists every directory and lstats every
// tracked file: two per core with the caller's, at most 16. A directory goes to a helper only when one is idle,
// so more goroutines than cores keep the cores busy while a helper finishes a subtree (on 2 cores, wide repo:
// 1 helper 96-102 ms a status, 3 helpers 79-84 ms).
var walkWorkers = min(2*runtime.GOMAXPROCS(0), 16) - 1

// untrackedScan is the state of scanUntracked.
type untrackedScan struct {
	rp       *repo
	idx      *gitIndex
	m        *ignore.Matcher
	dirs     map[string]bool
	known    []bool
	progress func(int)
	n        atomic.Int64

	mu   sync.Mutex // guards list and sent
	list []string
	sent int64 // the last progress reported, so that reports only grow
}

// visit is the walk's callback.
func (u *untrackedScan) visit(rel string, d fs.DirEntry) error {
	if c := u.n.Add(1); u.progress != nil && c%progressEvery == 0 {
		u.report(c)
	}
	if d.IsDir() {
		var found []string
		err := u.rp.scanDir(u.idx, u.m, u.dirs, rel, &found)
		u.add(found...)
		return err
	}
	if t := d.Type(); !t.IsRegular() && t&fs.ModeSymlink == 0 {
		return nil
	}
	i, tracked := u.idx.byName[rel]
	switch {
	case !tracked:
		u.add(rel)
	case worktreeEntry(u.idx, 0, i) && walkedClean(d, &u.idx.entries[i], u.idx):
		u.known[i] = true
	}
	return nil
}

func (u *untrackedScan) add(found ...string) {
	if len(found) == 0 {
		return
	}
	u.mu.Lock()
	u.list = append(u.list, found...)
	u.mu.Unlock()
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
func (rp *repo) ignoreMatcher() (*ignore.Matcher, error) {
	if rp.matcher == nil {
		m, err := ignore.New(rp.worktree)
		if err != nil {
			return nil, err
		}
		rp.matcher = m
	}
	return rp.matcher, nil
}

// progressEvery is how many walked entries pass between progress notifications.
const progressEvery = 5000

// scanDir decides whether the walk enters directory rel.
func (rp *repo) scanDir(idx *gitIndex, m *ignore.Matcher, dirs map[string]bool, rel string, list *[]string) error {
	if i, ok := idx.byName[rel]; ok && idx.entries[i].mode == filemode.Submodule {
		return fs.SkipDir // submodule contents are not compared (gap: dirty submodules show clean)
	}
	if dirs[rel] {
		return nil
	}
	if rp.dirHasFiles(m, rel, 0) {
		*list = append(*list, rel+"/")
	}
	return fs.SkipDir
}

// maxDirProbe bounds how deep dirHasFiles looks for a non-ignored file in an untracked directory.
const maxDirProbe = 64

// dirHasFiles reports whether the untracked directory rel holds a non-ignored file (git doesn't list empty
// or wholly ignored directories), or is a nested repository.
func (rp *repo) dirHasFiles(m *ignore.Matcher, rel string, depth int) bool {
	if depth > maxDirProbe {
		return false
	}
	f, err := rp.loc.FS().Open(rp.loc.Join(rel).Name())
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
			if !m.Ignored(child, true) && rp.dirHasFiles(m, child, depth+1) {
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

// dirs returns every directory that holds a tracked path, computed once per index.
func (idx *gitIndex) dirs() map[string]bool {
	if idx.dirSet != nil {
		return idx.dirSet
	}
	idx.dirSet = map[string]bool{}
	for _, e := range idx.entries {
		for d := range parentDirs(e.name) {
			if idx.dirSet[d] {
				break
			}
			idx.dirSet[d] = true
		}
	}
	return idx.dirSet
}
