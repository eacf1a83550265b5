package stashcmd

// git_stash apply and pop: the stash's changes (base: the commit it was made on) merged into the current
// worktree with the merge engine, as git does; changes come back unstaged, except files the stash added,
// which stay staged as git leaves them; untracked files come back untracked. show prints the patch.

import (
	"context"
	"errors"
	"fmt"

	"github.com/go-git/go-git/v5/plumbing/format/index"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/grove-mcp/grove/gittools/internal/diff"
	"github.com/grove-mcp/grove/gittools/internal/gitwrite"
	"github.com/grove-mcp/grove/gittools/internal/merge"
	"github.com/grove-mcp/grove/gittools/internal/mergecmd"
	"github.com/grove-mcp/grove/gittools/internal/repo"
	"github.com/grove-mcp/grove/gittools/internal/writecmd"
)

func show(rp *repo.Repo, ctx context.Context, n int, out *Out) error {
	w, err := stashCommit(rp, n)
	if err != nil {
		return err
	}
	b, err := w.Parent(0)
	if err != nil {
		return err
	}
	changes, err := diff.Trees(rp, ctx, b.TreeHash, w.TreeHash, "")
	if err != nil {
		return err
	}
	_, patch, err := diff.Render(rp, ctx, changes, diff.DefaultContext, false)
	out.Stash, out.Patch = w.Hash.String(), patch
	return err
}

func apply(rp *repo.Repo, ctx context.Context, n int, pop bool, out *Out) error {
	w, err := stashCommit(rp, n)
	if err != nil {
		return err
	}
	out.Stash = w.Hash.String()
	b, err := w.Parent(0)
	if err != nil {
		return err
	}
	hc, err := rp.HeadCommit()
	if err != nil || hc == nil {
		return errors.Join(errors.New("cannot apply a stash: HEAD has no commit"), err)
	}
	head, err := mergecmd.FlatTree(rp, ctx, hc.TreeHash)
	if err != nil {
		return err
	}
	unt, err := untrackedFiles(rp, ctx, w)
	if err != nil {
		return err
	}
	for p := range unt {
		if _, err := rp.Loc.Join(p).Lstat(); err == nil {
			return fmt.Errorf("cannot apply stash@{%d}: %s already exists, and the stash holds it as an untracked file; nothing was changed", n, p)
		}
	}
	ix, err := gitwrite.LoadIndex(rp)
	if err != nil {
		return err
	}
	defer ix.Close()
	what := fmt.Sprintf("apply stash@{%d}", n)
	if err := mergecmd.RequireCleanIndex(ix, head, what); err != nil {
		return err
	}
	opts := merge.Options{Labels: merge.Labels{Ours: "Updated upstream", Theirs: "Stashed changes", Base: "Stash base"}}
	res, err := merge.Trees(ctx, mergecmd.Store(rp), b.TreeHash, hc.TreeHash, w.TreeHash, opts)
	if err != nil {
		return err
	}
	o, err := mergecmd.ApplyResult(rp, ctx, ix, head, res, what)
	if err != nil {
		return err
	}
	ctx = context.WithoutCancel(ctx)
	out.Conflicts = o.Conflicts
	if err := unstage(rp, ctx, head, unt, o); err != nil {
		return err
	}
	if pop && len(o.Conflicts) == 0 {
		if _, err := drop(rp, n); err != nil {
			return err
		}
		out.Dropped = true
	}
	return nil
}

// unstage sets the index of the paths the stash changed back to HEAD's entries (files it added stay
// staged, conflicted paths keep their stages) and writes its untracked files without staging them.
func unstage(rp *repo.Repo, ctx context.Context, head map[string]gitwrite.BlobEntry, unt map[string]gitwrite.BlobEntry, o mergecmd.Outcome) error {
	ix, err := gitwrite.LoadIndex(rp)
	if err != nil {
		return err
	}
	defer ix.Close()
	for _, p := range append(append([]string(nil), o.Updated...), o.Removed...) {
		b, ok := head[p]
		if !ok || ix.Conflicted(p) {
			continue
		}
		ix.Set(&index.Entry{Name: p, Hash: b.Hash, Mode: b.Mode})
	}
	if len(unt) > 0 {
		if err := writecmd.Restore(rp, ctx, ix, unt, nil); err != nil {
			return err
		}
		for p := range unt {
			ix.RemoveName(p)
		}
	}
	if err := ix.Save(); err != nil {
		return err
	}
	rp.Changed()
	return nil
}

// untrackedFiles lists the stash's untracked-files commit (its third parent), if any.
func untrackedFiles(rp *repo.Repo, ctx context.Context, w *object.Commit) (map[string]gitwrite.BlobEntry, error) {
	if w.NumParents() < 3 {
		return nil, nil
	}
	u, err := rp.Git.CommitObject(w.ParentHashes[2])
	if err != nil {
		return nil, fmt.Errorf("reading the stash's untracked files: %w", err)
	}
	return mergecmd.FlatTree(rp, ctx, u.TreeHash)
}
