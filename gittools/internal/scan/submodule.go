package scan

// Submodules in the worktree: a gitlink entry's worktree side is the repository checked out at its path,
// compared as git status compares it (gitsubmodules(7)): its HEAD against the commit the index records (new
// commits), and its own status (modified content, untracked content). git status --porcelain prints any of
// these as " M path"; git diff prints "Subproject commit <head>", with "-dirty" for modified content.

import (
	"context"
	"fmt"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/grove-mcp/grove/gittools/internal/gitfmt"
	"github.com/grove-mcp/grove/gittools/internal/repo"
)

// SubState is the worktree side of a checked-out submodule.
type SubState struct {
	Head       plumbing.Hash // the submodule's HEAD commit (zero on an unborn branch)
	NewCommits bool          // Head differs from the commit the index records
	Modified   bool          // tracked changes, staged or not, or a changed submodule of its own
	Untracked  bool          // untracked files
}

// Changed reports whether git status shows the submodule as modified.
func (s SubState) Changed() bool { return s.NewCommits || s.Modified || s.Untracked }

// Dirty reports whether git diff marks the submodule's commit "-dirty" (untracked files alone do not).
func (s SubState) Dirty() bool { return s.Modified }

// maxSubmoduleDepth bounds how deep submodules of submodules are opened (git has no limit, but a crafted
// repository could nest them without end).
const maxSubmoduleDepth = 8

// Submodules returns the state of every checked-out submodule whose index entry is under limit ("" = all)
// and that git status would show as modified. A submodule directory without a repository (not checked out)
// or missing is left out: scanRange already reports a missing one as deleted.
func Submodules(rp *repo.Repo, ctx context.Context, idx *gitfmt.Index, limit string) (map[string]SubState, error) {
	return submodules(rp, ctx, idx, limit, 0)
}

func submodules(rp *repo.Repo, ctx context.Context, idx *gitfmt.Index, limit string, depth int) (map[string]SubState, error) {
	out := map[string]SubState{}
	lo, hi := idx.PrefixRange(limit)
	if i, ok := idx.Find(limit); ok {
		lo, hi = i, i+1
	}
	for i := lo; i < hi; i++ {
		e := idx.Entries[i]
		if e.Mode != filemode.Submodule || !worktreeEntry(idx, lo, i) {
			continue
		}
		st, ok, err := Submodule(rp, ctx, e.Name, e.Hash, depth)
		if err != nil {
			return nil, err
		}
		if ok && st.Changed() {
			out[e.Name] = st
		}
	}
	return out, nil
}

// Submodule returns the state of the submodule checked out at rel, whose index entry records commit want;
// ok is false when rel holds no repository. depth is how deep in submodules rp itself is (0 for the
// repository a tool opened). The patch writer calls it for a gitlink to print git diff's
// "Subproject commit <st.Head>" line, with "-dirty" when st.Dirty().
func Submodule(rp *repo.Repo, ctx context.Context, rel string, want plumbing.Hash, depth int) (st SubState, ok bool, err error) {
	if depth >= maxSubmoduleDepth {
		return SubState{}, false, nil
	}
	sub, err := rp.OpenSubmodule(rel)
	if err != nil || sub == nil {
		return SubState{}, false, err
	}
	defer sub.Close()
	if err := subStatus(sub, ctx, want, depth+1, &st); err != nil {
		return SubState{}, false, fmt.Errorf("reading submodule %s: %w", rel, err)
	}
	return st, true, nil
}

// subStatus fills st from the submodule sub's HEAD and status.
func subStatus(sub *repo.Repo, ctx context.Context, want plumbing.Hash, depth int, st *SubState) error {
	head, _, err := sub.HeadHash()
	if err != nil {
		return err
	}
	st.Head, st.NewCommits = head, head != want
	idx, err := sub.Index()
	if err != nil {
		return err
	}
	staged, err := Staged(sub, ctx, idx)
	if err != nil {
		return err
	}
	wt, err := Worktree(sub, ctx, idx, true, nil)
	if err != nil {
		return err
	}
	nested, err := submodules(sub, ctx, idx, "", depth)
	if err != nil {
		return err
	}
	st.Modified = len(staged) > 0 || len(wt.Changed) > 0 || len(nested) > 0 || len(Unmerged(idx)) > 0
	st.Untracked = len(wt.Untracked) > 0
	return nil
}
