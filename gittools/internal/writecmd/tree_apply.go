package writecmd

// Moving the worktree and index from HEAD's tree to another tree for git_merge, git_cherry_pick, git_revert
// and git_stash: the same plan and refusals as a branch switch (local changes the move would overwrite or
// delete, untracked files in the way), then the same writes.

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/index"

	"github.com/grove-mcp/grove/gittools/internal/gitwrite"
	"github.com/grove-mcp/grove/gittools/internal/repo"
)

// ErrLocalChanges is wrapped by the refusal of MoveTree.
var ErrLocalChanges = errors.New("local changes would be overwritten")

// TreeMove is a planned move of the worktree and index from one tree's files to another's.
type TreeMove struct {
	plan checkoutPlan
}

// PlanTreeMove plans moving the worktree and ix from cur to tgt without writing anything; it fails, naming
// the files, when local changes or untracked files are in the way. what names the operation in errors.
// changed, when not nil, holds every path at which cur and tgt may differ (more is fine): only those are
// compared.
func PlanTreeMove(rp *repo.Repo, ctx context.Context, ix *gitwrite.IndexFile, cur, tgt map[string]gitwrite.BlobEntry, changed []string, what string) (*TreeMove, error) {
	wt, err := gitwrite.OpenWorktree(rp)
	if err != nil {
		return nil, err
	}
	plan := makePlan(rp, ctx, wt, ix, cur, tgt, changed)
	wt.Close()
	if err := ctx.Err(); err != nil {
		return nil, err // a file the plan could not read when the request ended is not a local change
	}
	if len(plan.unsupported) > 0 {
		return nil, fmt.Errorf("cannot %s with grove; nothing was changed:\n  %s", what,
			strings.Join(plan.unsupported[:min(len(plan.unsupported), 20)], "\n  "))
	}
	if len(plan.conflicts) > 0 {
		const max = 50
		shown := plan.conflicts[:min(len(plan.conflicts), max)]
		msg := fmt.Sprintf("cannot %s: your local changes to these files would be overwritten; commit them "+
			"(git_add + git_commit) or stash them (git_stash) first. Nothing was changed.\n  %s", what, strings.Join(shown, "\n  "))
		if len(plan.conflicts) > max {
			msg += fmt.Sprintf("\n  … and %d more", len(plan.conflicts)-max)
		}
		return nil, fmt.Errorf("%s: %w", msg, ErrLocalChanges)
	}
	return &TreeMove{plan: plan}, ctx.Err()
}

// Apply carries the move out on the worktree and the in-memory ix (the caller saves ix).
func (m *TreeMove) Apply(rp *repo.Repo, ctx context.Context, ix *gitwrite.IndexFile) error {
	wt, err := gitwrite.OpenWorktree(rp)
	if err != nil {
		return err
	}
	defer wt.Close()
	return applyPlan(rp, ctx, wt, ix, m.plan)
}

// Written and Removed list the worktree paths the move writes and deletes.
func (m *TreeMove) Written() []string { return m.plan.writes }
func (m *TreeMove) Removed() []string { return m.plan.removes }

// Restore writes the given tree entries into the worktree and ix (stage 0, fresh stat data) and deletes the
// files and index entries of removes: all of it, or on an error none of it. Callers check first that nothing
// of value is lost.
func Restore(rp *repo.Repo, ctx context.Context, ix *gitwrite.IndexFile, writes map[string]gitwrite.BlobEntry, removes []string) error {
	wt, err := gitwrite.OpenWorktree(rp)
	if err != nil {
		return err
	}
	defer wt.Close()
	plan := checkoutPlan{writes: slices.Sorted(maps.Keys(writes)), removes: slices.Sorted(slices.Values(removes)), target: writes}
	return applyPlan(rp, ctx, wt, ix, plan)
}

// WorktreeMatches reports whether the worktree file p has the content and mode of b (a missing file matches
// nothing).
func WorktreeMatches(rp *repo.Repo, ctx context.Context, p string, b gitwrite.BlobEntry) bool {
	wt, err := gitwrite.OpenWorktree(rp)
	if err != nil {
		return false
	}
	defer wt.Close()
	pl := &planner{ctx: ctx, rp: rp, wt: wt, fs: rootFS{wt}, fileMode: gitwrite.FileModeTrusted(rp)}
	if _, err := wt.Lstat(filepath.FromSlash(p)); err != nil {
		return false
	}
	return pl.clean(p, &index.Entry{Hash: b.Hash, Mode: b.Mode})
}
