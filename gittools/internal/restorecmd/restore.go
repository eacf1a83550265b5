// Package restorecmd owns git_restore: worktree files put back from the index or a revision, or index
// entries put back from HEAD or a revision (staged). Nothing is discarded silently: before a worktree file
// is overwritten or deleted its content is stored in the object database and the answer names that blob
// (git show <blob> brings it back until the next gc), and dry_run lists the same without changing anything.
//
//	out, err := restorecmd.Run(rp, ctx, restorecmd.Args{Source: "HEAD~1"}, []string{"main.go"})
package restorecmd

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/index"

	"github.com/grove-mcp/grove/gittools/internal/gitwrite"
	"github.com/grove-mcp/grove/gittools/internal/mergecmd"
	"github.com/grove-mcp/grove/gittools/internal/repo"
	"github.com/grove-mcp/grove/gittools/internal/writecmd"
)

// Args are the arguments of git_restore.
type Args struct {
	RepoPath string   `json:"repo_path,omitempty" jsonschema:"the repository or a directory in it: absolute path or file:// URI inside a root (default: the only root; required when there are several)"`
	Paths    []string `json:"paths" jsonschema:"files or directories to restore"`
	Source   string   `json:"source,omitempty" jsonschema:"the revision to restore from (default: the index for worktree files, HEAD with staged)"`
	Staged   bool     `json:"staged,omitempty" jsonschema:"restore the index entries instead of the worktree files (unstage): the worktree is not touched"`
	DryRun   bool     `json:"dry_run,omitempty" jsonschema:"list what would be restored and what would be overwritten, changing nothing"`
}

// Discarded is a worktree version a restore overwrote or deleted, saved as a blob.
type Discarded struct {
	Path string `json:"path"`
	Blob string `json:"blob" jsonschema:"the discarded content's blob (git show <blob> recovers it until gc)"`
}

// Out is the result of git_restore.
type Out struct {
	Restored  []string    `json:"restored,omitempty" jsonschema:"paths written (or whose index entry was set)"`
	Removed   []string    `json:"removed,omitempty" jsonschema:"paths deleted because the source does not have them"`
	Discarded []Discarded `json:"discarded,omitempty" jsonschema:"worktree versions that were (or with dry_run would be) overwritten or deleted"`
	DryRun    bool        `json:"dry_run,omitempty"`
}

// Run restores rels (paths relative to the worktree) in rp, which the caller holds locked.
func Run(rp *repo.Repo, ctx context.Context, in Args, rels []string) (Out, error) {
	out := Out{DryRun: in.DryRun}
	if len(rels) == 0 {
		return out, errors.New("paths is empty: name the files or directories to restore")
	}
	ix, err := gitwrite.LoadIndex(rp)
	if err != nil {
		return out, err
	}
	defer ix.Close()
	source, err := sourceFiles(rp, ctx, ix, in)
	if err != nil {
		return out, err
	}
	current := indexFiles(ix)
	paths, err := matching(rels, source, current, ix)
	if err != nil {
		return out, err
	}
	if in.Staged {
		return out, restoreIndex(rp, ix, source, current, paths, &out)
	}
	return out, restoreWorktree(rp, ctx, ix, source, current, paths, &out)
}

// sourceFiles is what is restored from: a revision's files, HEAD's (staged), or the index's.
func sourceFiles(rp *repo.Repo, ctx context.Context, ix *gitwrite.IndexFile, in Args) (map[string]gitwrite.BlobEntry, error) {
	rev := in.Source
	if rev == "" && in.Staged {
		rev = "HEAD"
	}
	if rev == "" {
		return indexFiles(ix), nil
	}
	if err := repo.ValidRevision(rev); err != nil {
		return nil, err
	}
	if rev == "HEAD" {
		hc, err := rp.HeadCommit()
		if err != nil {
			return nil, err
		}
		if hc == nil {
			return map[string]gitwrite.BlobEntry{}, nil
		}
		return mergecmd.FlatTree(rp, ctx, hc.TreeHash)
	}
	c, err := rp.Commit(rev)
	if err != nil {
		return nil, err
	}
	return mergecmd.FlatTree(rp, ctx, c.TreeHash)
}

// indexFiles lists the index's merged entries.
func indexFiles(ix *gitwrite.IndexFile) map[string]gitwrite.BlobEntry {
	out := map[string]gitwrite.BlobEntry{}
	for name := range ix.ByName {
		if e := ix.Entry(name); e != nil && !e.IntentToAdd {
			out[name] = gitwrite.BlobEntry{Hash: e.Hash, Mode: e.Mode}
		}
	}
	return out
}

// matching lists the source and index paths at or under rels; a path matching nothing is an error, as in git.
func matching(rels []string, source, current map[string]gitwrite.BlobEntry, ix *gitwrite.IndexFile) ([]string, error) {
	under := func(p, r string) bool { return r == "" || r == "." || p == r || strings.HasPrefix(p, r+"/") }
	seen := map[string]bool{}
	var out []string
	for _, r := range rels {
		n := 0
		for _, m := range []map[string]gitwrite.BlobEntry{source, current} {
			for p := range m {
				if under(p, r) {
					n++
					if !seen[p] {
						seen[p] = true
						out = append(out, p)
					}
				}
			}
		}
		if n == 0 {
			return nil, fmt.Errorf("pathspec %q did not match any file known to git", r)
		}
	}
	slices.Sort(out)
	for _, p := range out {
		if ix.Conflicted(p) {
			return nil, fmt.Errorf("%s is unmerged: resolve it and git_add it (or abort the operation) before restoring it", p)
		}
	}
	return out, nil
}

// restoreIndex sets the index entries of paths to the source's.
func restoreIndex(rp *repo.Repo, ix *gitwrite.IndexFile, source, current map[string]gitwrite.BlobEntry, paths []string, out *Out) error {
	for _, p := range paths {
		s, inSrc := source[p]
		c, inCur := current[p]
		switch {
		case inSrc && inCur && s == c:
			continue
		case inSrc:
			out.Restored = append(out.Restored, p)
			if !out.DryRun {
				ix.Set(&index.Entry{Name: p, Hash: s.Hash, Mode: s.Mode})
			}
		default:
			out.Removed = append(out.Removed, p)
			if !out.DryRun {
				ix.RemoveName(p)
			}
		}
		if inCur {
			out.Discarded = append(out.Discarded, Discarded{Path: p + " (staged)", Blob: c.Hash.String()})
		}
	}
	if out.DryRun || len(out.Restored)+len(out.Removed) == 0 {
		return nil
	}
	if err := ix.Save(); err != nil {
		return err
	}
	rp.Changed()
	return nil
}

// restoreWorktree writes the source's version of paths into the worktree (deleting those the source lacks),
// saving each overwritten version first; the index is left as it was.
func restoreWorktree(rp *repo.Repo, ctx context.Context, ix *gitwrite.IndexFile, source, current map[string]gitwrite.BlobEntry, paths []string, out *Out) error {
	wt, err := gitwrite.OpenWorktree(rp)
	if err != nil {
		return err
	}
	defer wt.Close()
	conv := gitwrite.NewConversions(rp, wt)
	writes := map[string]gitwrite.BlobEntry{}
	var removes []string
	for _, p := range paths {
		s, inSrc := source[p]
		if inSrc && writecmd.WorktreeMatches(rp, ctx, p, s) {
			continue
		}
		if !inSrc {
			if _, tracked := current[p]; !tracked {
				continue
			}
		}
		fi, err := wt.Lstat(filepath.FromSlash(p))
		if err == nil && !fi.IsDir() {
			e, err := gitwrite.WorktreeEntry(rp, ctx, wt, p, gitwrite.FileModeTrusted(rp), 0o100644, conv)
			if err != nil {
				return fmt.Errorf("saving %s before restoring it: %w", p, err)
			}
			out.Discarded = append(out.Discarded, Discarded{Path: p, Blob: e.Hash.String()})
		} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("reading %s: %w", p, repo.PathErr(err))
		}
		if inSrc {
			writes[p] = s
			out.Restored = append(out.Restored, p)
		} else {
			removes = append(removes, p)
			out.Removed = append(out.Removed, p)
		}
	}
	if out.DryRun || len(writes)+len(removes) == 0 {
		return ctx.Err()
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	prev := map[string][]*index.Entry{}
	for _, p := range append(slices.Collect(maps.Keys(writes)), removes...) {
		prev[p] = ix.ByName[p]
	}
	if err := writecmd.Restore(rp, context.WithoutCancel(ctx), ix, writes, removes); err != nil {
		return err
	}
	for p, es := range prev {
		if _, fromIndex := current[p]; fromIndex && writes[p] == current[p] {
			continue // restored from the index: the fresh entry has the same blob and up-to-date stat data
		}
		if len(es) == 0 {
			ix.RemoveName(p)
		} else {
			ix.SetStages(p, es)
		}
	}
	if err := ix.Save(); err != nil {
		return err
	}
	rp.Changed()
	return nil
}
