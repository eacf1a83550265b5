package scan

import (
	"context"
	"errors"
	"io/fs"
	"path"
	"sync"

	"github.com/grove-mcp/grove/gittools/internal/repo"

	"github.com/grove-mcp/grove/gittools/internal/gitfmt"

	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/grove-mcp/grove/internal/panics"
)

// Tracked compares the index entries under limit ("" = all) with the worktree without walking the tree,
// like git diff: no readdir and no ignore matching, only one lstat per tracked file, through an os.Root opened
// on its directory (see statter). A path below a symlinked or missing directory counts as deleted, as in git.
func Tracked(rp *repo.Repo, ctx context.Context, idx *gitfmt.Index, limit string) (*Result, error) {
	lo, hi := idx.PrefixRange(limit)
	if i, ok := idx.Find(limit); ok {
		lo, hi = i, i+1
	}
	return scanRange(rp, ctx, idx, lo, hi, nil)
}

// scanRange is scanTracked for the entries in [lo, hi); known[i] (if known is not nil) says entry i was
// already proven clean (see walkedClean).
func scanRange(rp *repo.Repo, ctx context.Context, idx *gitfmt.Index, lo, hi int, known []bool) (*Result, error) {
	infos, clean, err := LstatEntries(rp, ctx, idx, lo, hi, known)
	if err != nil {
		return nil, err
	}
	s := &Result{Changed: map[string]byte{}}
	for i := lo; i < hi; i++ {
		e := idx.Entries[i]
		if clean[i-lo] || !worktreeEntry(idx, lo, i) {
			continue
		}
		if c := compareTracked(rp, ctx, e, infos[i-lo], idx); c != 0 {
			s.Changed[e.Name] = c
		}
	}
	return s, nil
}

// worktreeEntry reports whether index entry i has a worktree file to compare: stage 0, not skip-worktree,
// and the first entry of its name.
func worktreeEntry(idx *gitfmt.Index, lo, i int) bool {
	e := &idx.Entries[i] // not a copy: every status calls this for every entry, some twice
	return e.Stage == 0 && !e.SkipWorktree && (i == lo || idx.Entries[i-1].Name != e.Name)
}

// compareTracked returns 0 if info (nil: missing) matches index entry e, else its Y column ('M', 'T', 'D', 'A').
func compareTracked(rp *repo.Repo, ctx context.Context, e gitfmt.IndexEntry, info fs.FileInfo, idx *gitfmt.Index) byte {
	switch {
	case info == nil:
		return 'D'
	case info.IsDir():
		if e.Mode != filemode.Submodule {
			return 'D'
		}
		return 0 // a submodule's state is compared by Submodules
	case e.AssumeValid:
		return 0 // assume-unchanged: git looks only whether the file is still there
	}
	return compareFile(rp, ctx, e, e.Name, info, idx)
}

// Scanning splits the entries into scanWorkers contiguous chunks lstat-ed in parallel, as git's preload-index
// does; ranges under minParallelScan entries aren't worth the goroutines.
const scanWorkers = 2

var MinParallelScan = 4096 // a variable so tests can lower it

// UseFastStat turns fastStat on; tests turn it off to compare with the statter alone.
var UseFastStat = true

// LstatEntries lstats the worktree files of the entries in [lo, hi). clean[i-lo] is set when the file's stat
// data proves it unchanged (see fastStat); otherwise infos[i-lo] describes it, nil when the file is missing or
// lies below a symlink or a non-directory.
func LstatEntries(rp *repo.Repo, ctx context.Context, idx *gitfmt.Index, lo, hi int, known []bool) (infos []fs.FileInfo, clean []bool, _ error) {
	infos, clean = make([]fs.FileInfo, hi-lo), make([]bool, hi-lo)
	workers := 1
	if hi-lo >= MinParallelScan {
		workers = scanWorkers
	}
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		a, b := lo+(hi-lo)*w/workers, lo+(hi-lo)*(w+1)/workers
		wg.Go(func() {
			defer panics.Catch(&errs[w]) // the request gets the panic as its error, the process goes on
			errs[w] = lstatChunk(rp, ctx, idx, lo, a, b, known, infos, clean)
		})
	}
	wg.Wait()
	return infos, clean, errors.Join(errs...)
}

// lstatChunk fills clean[a-lo:b-lo] and infos[a-lo:b-lo] through its own fastStat and statter.
func lstatChunk(rp *repo.Repo, ctx context.Context, idx *gitfmt.Index, lo, a, b int, known []bool, infos []fs.FileInfo, clean []bool) error {
	var fast *fastStat
	if UseFastStat {
		fast = newFastStat(rp)
	}
	defer fast.close()
	st := newStatter(rp)
	defer st.close()
	dirOK := map[string]bool{".": true}
	for i := a; i < b; i++ {
		if (i-a)%256 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		if !worktreeEntry(idx, lo, i) {
			continue
		}
		if known != nil && known[i] || fast.clean(&idx.Entries[i], idx) {
			clean[i-lo] = true
			continue
		}
		name := idx.Entries[i].Name
		if !st.realDir(path.Dir(name), dirOK) {
			continue
		}
		if info, err := st.lstat(name); err == nil {
			infos[i-lo] = info
		}
	}
	return nil
}

// realDir reports whether dir and each of its parents is a real directory (not a symlink), memoised in ok
// (which holds "." as true). Only relative paths can be: "/" and anything that does not shrink are not.
func (st *statter) realDir(dir string, ok map[string]bool) bool {
	if v, seen := ok[dir]; seen {
		return v
	}
	parent := path.Dir(dir)
	if parent == dir || len(parent) > len(dir) || parent == "/" { // path.Dir("t") is ".", as long as "t"
		return false
	}
	v := st.realDir(parent, ok)
	if v {
		info, err := st.lstat(dir)
		v = err == nil && info.IsDir()
	}
	ok[dir] = v
	return v
}
