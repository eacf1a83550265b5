package mergecmd

// Aborting a merge stopped on conflicts, as `git merge --abort` (git reset --merge) does: every path the
// merge changed goes back to HEAD's version in the index and the worktree, conflicted files included (their
// markers and any edits made while resolving are dropped, and the answer lists them); files the merge did
// not touch keep their local changes. A file the merge wrote cleanly but that was edited afterwards stops
// the abort, with nothing changed, rather than losing the edit.

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/grove-mcp/grove/gittools/internal/gitwrite"
	"github.com/grove-mcp/grove/gittools/internal/repo"
	"github.com/grove-mcp/grove/gittools/internal/writecmd"
)

// Abort undoes a merge in progress.
func Abort(rp *repo.Repo, ctx context.Context) (Out, error) {
	_, ok, err := readHashes(rp, "MERGE_HEAD")
	if err != nil {
		return Out{}, err
	}
	if !ok {
		return Out{}, errors.New("there is no merge to abort (MERGE_HEAD is missing)")
	}
	if err := resetMerge(rp, ctx, "abort the merge"); err != nil {
		return Out{}, err
	}
	if err := EndMerge(rp); err != nil {
		return Out{}, err
	}
	head, _, err := rp.HeadHash()
	if err != nil {
		return Out{}, err
	}
	return Out{Result: ResultAborted, Commit: head.String()}, nil
}

// resetMerge puts back HEAD's version of every path whose index entry differs from HEAD.
func resetMerge(rp *repo.Repo, ctx context.Context, what string) error {
	_, hc, err := headRef(rp)
	if err != nil {
		return err
	}
	headFiles, err := FlatTree(rp, ctx, hc.TreeHash)
	if err != nil {
		return err
	}
	ix, err := gitwrite.LoadIndex(rp)
	if err != nil {
		return err
	}
	defer ix.Close()
	writes := map[string]gitwrite.BlobEntry{}
	var removes, refused []string
	back := func(name string) {
		if b, ok := headFiles[name]; ok {
			writes[name] = b
		} else {
			removes = append(removes, name)
		}
	}
	for name := range ix.ByName {
		if ix.Conflicted(name) {
			back(name)
			continue
		}
		e := ix.Entry(name)
		if b, ok := headFiles[name]; ok && e.Hash == b.Hash && e.Mode == b.Mode {
			continue
		}
		if !writecmd.WorktreeMatches(rp, ctx, name, gitwrite.BlobEntry{Hash: e.Hash, Mode: e.Mode}) && exists(rp, name) {
			refused = append(refused, name)
			continue
		}
		back(name)
	}
	for name, b := range headFiles {
		if len(ix.ByName[name]) > 0 {
			continue
		}
		if exists(rp, name) && !writecmd.WorktreeMatches(rp, ctx, name, b) {
			refused = append(refused, name)
			continue
		}
		writes[name] = b
	}
	if len(refused) > 0 {
		slices.Sort(refused)
		return fmt.Errorf("cannot %s: these files were changed after the merge wrote them, and aborting would lose "+
			"that: %s. Nothing was changed", what, strings.Join(refused, ", "))
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	ctx = context.WithoutCancel(ctx)
	if err := writecmd.Restore(rp, ctx, ix, writes, removes); err != nil {
		return fmt.Errorf("%s failed part-way; run git_status to see the worktree: %w", what, err)
	}
	if err := ix.Save(); err != nil {
		return err
	}
	rp.Changed()
	return nil
}

// exists reports whether the worktree has something at p.
func exists(rp *repo.Repo, p string) bool {
	_, err := rp.Loc.Join(p).Lstat()
	return err == nil
}
