package mergecmd

// Putting a merge result into the worktree and the index: planned against HEAD's files first (refusing, with
// nothing written, when local changes are in the way), then written without heeding cancellation, so that a
// request cancelled part-way cannot leave half a merge behind.

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/index"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/grove-mcp/grove/gittools/internal/gitwrite"
	"github.com/grove-mcp/grove/gittools/internal/merge"
	"github.com/grove-mcp/grove/gittools/internal/repo"
	"github.com/grove-mcp/grove/gittools/internal/writecmd"
)

// FlatTree lists a tree's files, within repo's tree budget.
func FlatTree(rp *repo.Repo, ctx context.Context, tree plumbing.Hash) (map[string]gitwrite.BlobEntry, error) {
	out := map[string]gitwrite.BlobEntry{}
	err := repo.WalkTree(rp, ctx, tree, "", repo.NewTreeBudget(), nil, func(p string, e object.TreeEntry) {
		out[p] = gitwrite.BlobEntry{Hash: e.Hash, Mode: e.Mode}
	})
	return out, err
}

// RequireCleanIndex fails when the index differs from HEAD's files (staged changes, or conflicts).
func RequireCleanIndex(ix *gitwrite.IndexFile, head map[string]gitwrite.BlobEntry, what string) error {
	n, staged := 0, ""
	for name, es := range ix.ByName { // one pass: an index of a large tree is checked on every merge
		for _, e := range es {
			if e.Stage != gitwrite.StageMerged {
				return fmt.Errorf("cannot %s: the index has unmerged paths (%v); resolve them first", what, ix.Unmerged())
			}
			if e.IntentToAdd {
				continue
			}
			n++
			if b, ok := head[name]; staged == "" && (!ok || b.Hash != e.Hash || b.Mode != e.Mode) {
				staged = name
			}
		}
	}
	if staged != "" {
		return fmt.Errorf("cannot %s: %s has staged changes; commit them or unstage them (git_reset) first", what, staged)
	}
	if n != len(head) {
		return fmt.Errorf("cannot %s: the index has staged deletions; commit them or unstage them (git_reset) first", what)
	}
	return nil
}

// Outcome is a merge result applied to the worktree and index.
type Outcome struct {
	Updated, Removed []string
	Conflicts        []ConflictOut
}

// ApplyResult moves the worktree and index from HEAD's files to res, with conflict stages, and saves the index.
// When res.Changed is set, head must be the files of the tree res merged as ours (the result's files are then
// head's with res.Changed applied, and res.Tree is not read); of those, the files at res.Changed's paths and
// every .gitattributes file are enough (indexFiles), since nothing else is compared or written.
func ApplyResult(rp *repo.Repo, ctx context.Context, ix *gitwrite.IndexFile, head map[string]gitwrite.BlobEntry, res *merge.Result, what string) (Outcome, error) {
	tgt, err := resultFiles(rp, ctx, head, res)
	if err != nil {
		return Outcome{}, err
	}
	var changed []string // nil: compare every path
	if res.Changed != nil {
		changed = slices.Collect(maps.Keys(res.Changed))
	}
	move, err := writecmd.PlanTreeMove(rp, ctx, ix, head, tgt, changed, what)
	if err != nil {
		return Outcome{}, err
	}
	if err := ctx.Err(); err != nil {
		return Outcome{}, err
	}
	ctx = context.WithoutCancel(ctx)
	if err := move.Apply(rp, ctx, ix); err != nil {
		return Outcome{}, fmt.Errorf("%s failed part-way; run git_status to see the worktree: %w", what, err)
	}
	out := Outcome{Updated: move.Written(), Removed: move.Removed()}
	for _, c := range res.Conflicts {
		var stages []*index.Entry
		for i, e := range c.Stages {
			if e.Present() {
				stages = append(stages, &index.Entry{Hash: e.Hash, Mode: e.Mode, Stage: index.Stage(i + 1)})
			}
		}
		ix.SetStages(c.Path, stages)
		out.Conflicts = append(out.Conflicts, ConflictOut{Path: c.Path, Kind: string(c.Kind)})
	}
	if err := ix.Save(); err != nil {
		return Outcome{}, err
	}
	rp.Changed()
	return out, nil
}

// indexFiles is HEAD's files that ApplyResult needs for a result with changed paths (those paths' and every
// .gitattributes file), read from an index that matches HEAD's tree (IndexFile.MatchesTree).
func indexFiles(ix *gitwrite.IndexFile, changed map[string]merge.Entry) map[string]gitwrite.BlobEntry {
	out := make(map[string]gitwrite.BlobEntry, len(changed)+16)
	for p := range changed {
		if e := ix.Entry(p); e != nil {
			out[p] = gitwrite.BlobEntry{Hash: e.Hash, Mode: e.Mode}
		}
	}
	for _, e := range ix.All() {
		if e.Name == ".gitattributes" || strings.HasSuffix(e.Name, "/.gitattributes") {
			out[e.Name] = gitwrite.BlobEntry{Hash: e.Hash, Mode: e.Mode}
		}
	}
	return out
}

// resultFiles lists res.Tree's files: head's with res.Changed applied, or read from the tree.
func resultFiles(rp *repo.Repo, ctx context.Context, head map[string]gitwrite.BlobEntry, res *merge.Result) (map[string]gitwrite.BlobEntry, error) {
	if res.Changed == nil {
		return FlatTree(rp, ctx, res.Tree)
	}
	tgt := maps.Clone(head)
	for p, e := range res.Changed {
		if e.Present() {
			tgt[p] = gitwrite.BlobEntry{Hash: e.Hash, Mode: e.Mode}
		} else {
			delete(tgt, p)
		}
	}
	return tgt, nil
}

// Store is the merge engine's view of rp's objects for a merge that writes its result: the trees and small
// blobs it creates are stored as one pack (repo.WritePack) instead of a loose file each.
func Store(rp *repo.Repo) *merge.Store {
	return &merge.Store{S: rp.Git.Storer, MaxBlob: rp.MaxRead, Pack: rp.WritePack, PackMax: repo.MaxPackedObject}
}
