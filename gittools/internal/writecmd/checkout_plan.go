package writecmd

// Planning a branch switch the way git's two-way merge (read-tree -m -u) does, before anything is written:
// for every path that differs between HEAD and the target, the index must equal HEAD's entry or the target's,
// and when the worktree must change, the worktree file must be unmodified (or already gone). A path the target
// adds must not be taken by an untracked file, and nothing may be written behind a symlink or an untracked file.

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"syscall"

	"github.com/grove-mcp/grove/gittools/internal/gitwrite"

	"github.com/grove-mcp/grove/gittools/internal/repo"

	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// maxInTheWay bounds how many entries of a directory in the way of a new file are inspected.
const maxInTheWay = 10000

// checkoutPlan is what a switch writes, deletes and refuses.
type checkoutPlan struct {
	writes      []string // target paths to write into the worktree
	removes     []string // paths to delete from the worktree
	conflicts   []string // "path: reason"
	unsupported []string // content git would convert and grove cannot
	target      map[string]gitwrite.BlobEntry
}

// planner holds what planning reads.
type planner struct {
	ctx       context.Context
	rp        *repo.Repo
	wt        *os.Root
	fs        txFS // wt, through directory handles where the platform has them: the per-path checks' stats
	ix        *gitwrite.IndexFile
	cur, tgt  map[string]gitwrite.BlobEntry
	fileMode  bool
	conv      *gitwrite.Conversions
	plan      checkoutPlan
	removeSet map[string]bool
}

func (pl *planner) conflict(p, reason string) {
	pl.plan.conflicts = append(pl.plan.conflicts, p+": "+reason)
}

// makePlan compares HEAD's files (cur) with the target's (tgt) against the index and the worktree. candidates,
// when not nil, holds every path at which cur and tgt may differ (more is fine), so that only those are
// compared.
func makePlan(rp *repo.Repo, ctx context.Context, wt *os.Root, ix *gitwrite.IndexFile, cur, tgt map[string]gitwrite.BlobEntry, candidates []string) checkoutPlan {
	conv := gitwrite.NewConversions(rp, wt)
	conv.Tree = gitwrite.TreeAttributes(rp, tgt)
	pl := &planner{ctx: ctx, rp: rp, wt: wt, fs: newTxFS(wt), ix: ix, cur: cur, tgt: tgt, fileMode: gitwrite.FileModeTrusted(rp), conv: conv,
		plan: checkoutPlan{target: tgt}, removeSet: map[string]bool{}}
	defer pl.fs.Close()
	var changed []string
	if candidates != nil {
		for _, p := range candidates {
			c, inCur := cur[p]
			if t, inTgt := tgt[p]; inCur != inTgt || t != c {
				changed = append(changed, p)
			}
		}
	} else {
		for p, c := range cur {
			if t, ok := tgt[p]; !ok || t != c {
				changed = append(changed, p)
			}
		}
		for p := range tgt {
			if _, ok := cur[p]; !ok {
				changed = append(changed, p)
			}
		}
	}
	sort.Strings(changed)
	changed = slices.Compact(changed)
	for _, p := range changed {
		pl.planPath(p)
	}
	for _, p := range pl.plan.writes {
		pl.checkWay(p)
	}
	sort.Strings(pl.plan.conflicts)
	return pl.plan
}

// planPath decides one path that differs between HEAD and the target.
func (pl *planner) planPath(p string) {
	c, inCur := pl.cur[p]
	t, inTgt := pl.tgt[p]
	e := pl.ix.Entry(p)
	switch {
	case sameEntry(e, t, inTgt):
		// already staged as the target has it: index and worktree stay
	case !sameEntry(e, c, inCur):
		pl.conflict(p, "has staged changes")
	case inCur && !pl.clean(p, e):
		pl.conflict(p, "has uncommitted changes")
	case inTgt:
		if err := pl.conv.CheckOut(p); err != nil {
			pl.plan.unsupported = append(pl.plan.unsupported, err.Error())
		}
		pl.plan.writes = append(pl.plan.writes, p)
	default:
		pl.plan.removes = append(pl.plan.removes, p)
		pl.removeSet[p] = true
	}
}

// sameEntry reports whether the index entry e (nil: none) equals the tree entry b (ok false: none).
func sameEntry(e *index.Entry, b gitwrite.BlobEntry, ok bool) bool {
	if e == nil || !ok {
		return e == nil && !ok
	}
	return e.Hash == b.Hash && e.Mode == b.Mode
}

// clean reports whether the worktree file p matches its index entry e, or is gone (nothing to lose).
func (pl *planner) clean(p string, e *index.Entry) bool {
	if errors.Is(pl.fs.CheckParents(p), gitwrite.ErrSymlinkParent) {
		return true // behind a symlink: to git the file is deleted; checkWay refuses writing there
	}
	fi, err := pl.fs.Lstat(filepath.FromSlash(p))
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return true
	}
	if err != nil || fi.IsDir() {
		return e.Mode == 0o160000 && err == nil // a submodule is a directory; its contents are not ours
	}
	if pl.ix != nil && gitwrite.EntryUnchanged(e, fi, pl.ix.Idx.ModTime, gitwrite.EntryMode(fi, pl.fileMode, e.Mode)) {
		return true // the index's stat data still describe the file: not read again, as git status does
	}
	h, fi, err := gitwrite.BlobHash(pl.ctx, pl.wt, filepath.FromSlash(p))
	if err != nil {
		return false // unreadable, or the request ended: switchTo checks ctx before writing anything
	}
	return h == e.Hash && gitwrite.EntryMode(fi, pl.fileMode, e.Mode) == e.Mode
}

// checkWay refuses writing p when something untracked, or a symlink, takes its place or a parent's.
func (pl *planner) checkWay(p string) {
	parts := strings.Split(p, "/")
	for i := 1; i < len(parts); i++ {
		q := strings.Join(parts[:i], "/")
		fi, err := pl.fs.Lstat(filepath.FromSlash(q))
		if err != nil || fi.IsDir() && fi.Mode()&fs.ModeSymlink == 0 {
			continue
		}
		if !pl.removeSet[q] {
			reason := "would be written through the untracked file " + q
			if fi.Mode()&fs.ModeSymlink != 0 {
				reason = "would be written through the symbolic link " + q
			}
			pl.conflict(p, reason)
			return
		}
	}
	fi, err := pl.fs.Lstat(filepath.FromSlash(p))
	switch {
	case err != nil:
	case pl.cur[p] != (gitwrite.BlobEntry{}) && !fi.IsDir():
		// tracked and clean (planPath checked): overwritten with the target's version
	case fi.IsDir() && pl.tgt[p].Mode == 0o160000:
	case fi.IsDir():
		if u := pl.untrackedIn(p); u != "" {
			pl.conflict(p, "the untracked file "+u+" would be overwritten")
		}
	default:
		pl.conflict(p, "the untracked file would be overwritten")
	}
}

// untrackedIn returns a file under the directory p that the switch does not delete, or "".
func (pl *planner) untrackedIn(p string) string {
	var found string
	n := 0
	var walk func(dir string)
	walk = func(dir string) {
		f, err := pl.wt.Open(filepath.FromSlash(dir))
		if err != nil {
			found = dir
			return
		}
		ents, err := f.ReadDir(-1)
		f.Close()
		if err != nil {
			found = dir
			return
		}
		for _, d := range ents {
			q := path.Join(dir, d.Name())
			if n++; found != "" || n > maxInTheWay {
				found = cmp.Or(found, q)
				return
			}
			if d.IsDir() {
				walk(q)
			} else if !pl.removeSet[q] {
				found = q
			}
		}
	}
	walk(p)
	return found
}

// conflictError names every file that blocks the switch.
func conflictError(branch string, conflicts []string) error {
	const max = 50
	shown := conflicts[:min(len(conflicts), max)]
	msg := fmt.Sprintf("cannot switch to %q: it would overwrite or delete local changes; commit them (git_add + "+
		"git_commit) or move the files first. Nothing was changed.\n  %s", branch, strings.Join(shown, "\n  "))
	if len(conflicts) > max {
		msg += fmt.Sprintf("\n  … and %d more", len(conflicts)-max)
	}
	return errors.New(msg)
}
