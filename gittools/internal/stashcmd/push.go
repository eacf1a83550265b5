package stashcmd

// git_stash push: the index commit, the worktree commit (tracked files as they are on disk) and the
// untracked-files commit, then the stashed changes reset to HEAD. Nothing is reset that the stash does not
// hold.

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/index"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/grove-mcp/grove/gittools/internal/gitwrite"
	"github.com/grove-mcp/grove/gittools/internal/mergecmd"
	"github.com/grove-mcp/grove/gittools/internal/repo"
	"github.com/grove-mcp/grove/gittools/internal/writecmd"
)

func save(rp *repo.Repo, ctx context.Context, in Args, rels []string, out *Out) error {
	hc, err := rp.HeadCommit()
	if err != nil {
		return err
	}
	if hc == nil {
		return errors.New("cannot stash: HEAD has no commit yet")
	}
	head, err := mergecmd.FlatTree(rp, ctx, hc.TreeHash)
	if err != nil {
		return err
	}
	ix, err := gitwrite.LoadIndex(rp)
	if err != nil {
		return err
	}
	defer ix.Close()
	if u := ix.Unmerged(); len(u) > 0 {
		return fmt.Errorf("cannot stash: unmerged paths %v", u)
	}
	idx, wtree, err := snapshot(rp, ctx, ix, rels)
	if err != nil {
		return err
	}
	var unt []string
	if in.IncludeUntracked {
		if unt, err = untracked(rp, ctx, rels); err != nil {
			return err
		}
	}
	changed := changedPaths(head, idx, wtree, rels)
	if len(changed) == 0 && len(unt) == 0 {
		out.Nothing = true
		return nil
	}
	branch, label := branchLabel(rp, hc)
	msg := "WIP on " + label
	if in.Message != "" {
		msg = "On " + branch + ": " + in.Message
	}
	w, err := stashCommits(rp, ctx, hc, idx, wtree, unt, label, msg)
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	ctx = context.WithoutCancel(ctx) // the stash is recorded: resetting must not stop half-way
	if err := push(rp, w, msg); err != nil {
		return err
	}
	if err := reset(rp, ctx, ix, head, changed, unt); err != nil {
		return fmt.Errorf("the stash was saved (%s) but resetting the worktree failed: %w", w.String()[:7], err)
	}
	out.Stash, out.Saved = w.String(), append(changed, unt...)
	return nil
}

// snapshot returns the index's version of every tracked file (git's index commit keeps the whole index, paths
// or not) and the worktree's: the files on disk for the paths in rels, the index's version of the others.
func snapshot(rp *repo.Repo, ctx context.Context, ix *gitwrite.IndexFile, rels []string) (idx, wtree map[string]gitwrite.BlobEntry, err error) {
	idx, wtree = map[string]gitwrite.BlobEntry{}, map[string]gitwrite.BlobEntry{}
	wt, err := gitwrite.OpenWorktree(rp)
	if err != nil {
		return nil, nil, err
	}
	defer wt.Close()
	conv := gitwrite.NewConversions(rp, wt)
	fileMode := gitwrite.FileModeTrusted(rp)
	for name := range ix.ByName {
		e := ix.Entry(name)
		if e == nil || e.IntentToAdd {
			continue
		}
		idx[name] = gitwrite.BlobEntry{Hash: e.Hash, Mode: e.Mode}
		if !inPaths(name, rels) {
			wtree[name] = idx[name]
			continue
		}
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		fi, err := wt.Lstat(filepath.FromSlash(name))
		switch {
		case errors.Is(err, fs.ErrNotExist) || gitwrite.CheckParents(wt, name) != nil:
			continue // deleted in the worktree
		case err != nil:
			return nil, nil, fmt.Errorf("reading %s: %w", name, repo.PathErr(err))
		case fi.IsDir():
			wtree[name] = idx[name] // a submodule
			continue
		case gitwrite.EntryUnchanged(e, fi, ix.Idx.ModTime, gitwrite.EntryMode(fi, fileMode, e.Mode)):
			wtree[name] = idx[name]
			continue
		}
		we, err := gitwrite.WorktreeEntry(rp, ctx, wt, name, fileMode, e.Mode, conv)
		if err != nil {
			return nil, nil, err
		}
		wtree[name] = gitwrite.BlobEntry{Hash: we.Hash, Mode: we.Mode}
	}
	return idx, wtree, nil
}

// changedPaths lists the paths in rels whose index or worktree version differs from HEAD's: the ones the
// stash takes away.
func changedPaths(head, idx, wtree map[string]gitwrite.BlobEntry, rels []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, m := range []map[string]gitwrite.BlobEntry{head, idx, wtree} {
		for p := range m {
			if seen[p] || !inPaths(p, rels) {
				continue
			}
			seen[p] = true
			h, hok := head[p]
			i, iok := idx[p]
			w, wok := wtree[p]
			if hok != iok || hok != wok || h != i || h != w {
				out = append(out, p)
			}
		}
	}
	slices.Sort(out)
	return out
}

// treeOf stores the tree of files.
func treeOf(rp *repo.Repo, files map[string]gitwrite.BlobEntry) (plumbing.Hash, error) {
	entries := make([]*index.Entry, 0, len(files))
	for p, b := range files {
		entries = append(entries, &index.Entry{Name: p, Hash: b.Hash, Mode: b.Mode})
	}
	return gitwrite.WriteTree(rp, entries)
}

// stashCommits writes I, U (when there are untracked files) and W, and returns W.
func stashCommits(rp *repo.Repo, ctx context.Context, hc *object.Commit, idx, wtree map[string]gitwrite.BlobEntry, unt []string, label, msg string) (plumbing.Hash, error) {
	it, err := treeOf(rp, idx)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	i, err := mergecmd.WriteCommit(rp, it, []plumbing.Hash{hc.Hash}, "index on "+label+"\n")
	if err != nil {
		return plumbing.ZeroHash, err
	}
	parents := []plumbing.Hash{hc.Hash, i}
	if len(unt) > 0 {
		u, err := untrackedCommit(rp, ctx, unt, label)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		parents = append(parents, u)
	}
	wt, err := treeOf(rp, wtree)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	return mergecmd.WriteCommit(rp, wt, parents, msg+"\n")
}

// untrackedCommit stores the untracked files as a parentless commit.
func untrackedCommit(rp *repo.Repo, ctx context.Context, unt []string, label string) (plumbing.Hash, error) {
	wt, err := gitwrite.OpenWorktree(rp)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	defer wt.Close()
	conv := gitwrite.NewConversions(rp, wt)
	files := map[string]gitwrite.BlobEntry{}
	for _, p := range unt {
		e, err := gitwrite.WorktreeEntry(rp, ctx, wt, p, gitwrite.FileModeTrusted(rp), 0o100644, conv)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		files[p] = gitwrite.BlobEntry{Hash: e.Hash, Mode: e.Mode}
	}
	t, err := treeOf(rp, files)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	return mergecmd.WriteCommit(rp, t, nil, "untracked files on "+label+"\n")
}

// reset puts HEAD's version back for the stashed paths and deletes the stashed untracked files.
func reset(rp *repo.Repo, ctx context.Context, ix *gitwrite.IndexFile, head map[string]gitwrite.BlobEntry, changed, unt []string) error {
	writes := map[string]gitwrite.BlobEntry{}
	var removes []string
	for _, p := range changed {
		if b, ok := head[p]; ok {
			writes[p] = b
		} else {
			removes = append(removes, p)
		}
	}
	removes = append(removes, unt...)
	if err := writecmd.Restore(rp, ctx, ix, writes, removes); err != nil {
		return err
	}
	if err := ix.Save(); err != nil {
		return err
	}
	rp.Changed()
	return nil
}
