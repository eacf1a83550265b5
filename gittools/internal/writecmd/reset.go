package writecmd

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/grove-mcp/grove/gittools/internal/gitwrite"

	"github.com/grove-mcp/grove/gittools/internal/repo"

	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// ResetArgs are the arguments of git_reset.
type ResetArgs struct {
	RepoPath string   `json:"repo_path,omitempty" jsonschema:"the repository or a directory in it: absolute path or file:// URI inside a root (default: the only root; with several, the root holding the first absolute path in files)"`
	Files    []string `json:"files,omitempty" jsonschema:"paths to unstage, relative to the worktree or absolute inside it; a directory unstages everything under it; none unstages everything"`
}

// ResetOut is the result of git_reset.
type ResetOut struct {
	Unstaged   []string `json:"unstaged,omitempty" jsonschema:"paths whose index entry went back to HEAD's"`
	StagedOnly []string `json:"staged_only,omitempty" jsonschema:"unstaged paths whose staged content differed from the worktree, with the blob that keeps it"`
}

// Reset runs git_reset: it sets the index entries under in.Files (all when none) back to HEAD's. It only
// writes .git/index: worktree files keep every change. A staged version that differs from the worktree
// leaves the index but not the repository (its blob stays), and the answer names that blob.
func Reset(ctx context.Context, env Env, in ResetArgs) (ResetOut, error) {
	rp, unlock, err := env.Open(ctx, in.RepoPath, in.Files...)
	if err != nil {
		return ResetOut{}, err
	}
	defer unlock()
	rels, err := WorktreePaths(rp, env.Scope, in.Files)
	if err != nil {
		return ResetOut{}, err
	}
	if len(rels) == 0 {
		rels = []string{"."}
	}
	head, err := rp.HeadCommit()
	if err != nil {
		return ResetOut{}, fmt.Errorf("reading HEAD: %w", err)
	}
	headFiles, err := gitwrite.FlatTree(rp, ctx, head)
	if err != nil {
		return ResetOut{}, fmt.Errorf("reading HEAD's tree: %w", err)
	}
	ix, err := gitwrite.LoadIndex(rp)
	if err != nil {
		return ResetOut{}, err
	}
	defer ix.Close()
	if err := checkPathspecs(rels, ix.All(), headFiles); err != nil {
		return ResetOut{}, err
	}
	prev := ix.ByName // ReplaceAll leaves this map alone
	unstaged := resetEntries(ix, headFiles, rels)
	if len(unstaged) == 0 {
		return ResetOut{}, nil
	}
	out := ResetOut{Unstaged: unstaged, StagedOnly: stagedOnly(rp, ctx, prev, headFiles, unstaged)}
	if err := ix.Save(); err != nil {
		return ResetOut{}, err
	}
	rp.Changed()
	return out, nil
}

// Text is git_reset's answer for the model.
func (out ResetOut) Text() string {
	if len(out.Unstaged) == 0 {
		return "Nothing to unstage: the index already matches HEAD for these paths."
	}
	text := "Unstaged; the worktree is unchanged." + ListText("unstaged", out.Unstaged)
	if len(out.StagedOnly) > 0 {
		text += "\nThe staged versions of these files differed from the worktree; they are no longer in the index " +
			"but stay in the object database (git show <blob> or git fsck --lost-found recovers them until gc):" +
			ListText("staged-only versions", out.StagedOnly)
	}
	return text
}

// stagedOnly lists, as "path (blob <hash>)", the unstaged paths whose staged content differed from both HEAD
// and the worktree: the one thing a reset takes out of the index that exists nowhere else in the worktree.
func stagedOnly(rp *repo.Repo, ctx context.Context, prev map[string][]*index.Entry, head map[string]gitwrite.BlobEntry, unstaged []string) []string {
	wt, err := gitwrite.OpenWorktree(rp)
	if err != nil {
		return nil
	}
	defer wt.Close()
	var out []string
	for _, name := range unstaged {
		var e *index.Entry
		for _, pe := range prev[name] {
			if pe.Stage == gitwrite.StageMerged {
				e = pe
			}
		}
		if h, ok := head[name]; e == nil || ok && h.Hash == e.Hash || e.Mode == filemode.Submodule {
			continue
		}
		if h, _, err := gitwrite.BlobHash(ctx, wt, filepath.FromSlash(name)); err == nil && h == e.Hash {
			continue
		}
		out = append(out, fmt.Sprintf("%s (blob %s)", name, e.Hash.String()[:repo.ShortLen]))
	}
	return out
}

// checkPathspecs refuses a path that names nothing in the index or in HEAD.
func checkPathspecs(rels []string, entries []*index.Entry, head map[string]gitwrite.BlobEntry) error {
	for _, rel := range rels {
		hit := slices.ContainsFunc(entries, func(e *index.Entry) bool { return gitwrite.Under(rel, e.Name) })
		for name := range head {
			if hit {
				break
			}
			hit = gitwrite.Under(rel, name)
		}
		if !hit {
			return fmt.Errorf("pathspec %q did not match any file known to git", rel)
		}
	}
	return nil
}

// resetEntries rewrites the index entries under rels to HEAD's and returns the paths that changed.
func resetEntries(ix *gitwrite.IndexFile, head map[string]gitwrite.BlobEntry, rels []string) []string {
	selected := func(name string) bool {
		return slices.ContainsFunc(rels, func(rel string) bool { return gitwrite.Under(rel, name) })
	}
	old := make(map[string]*index.Entry)
	conflicted := make(map[string]bool)
	var kept []*index.Entry
	for _, e := range ix.All() {
		switch {
		case !selected(e.Name):
			kept = append(kept, e)
		case e.Stage != gitwrite.StageMerged:
			conflicted[e.Name] = true
		default:
			old[e.Name] = e
		}
	}
	var changed []string
	for name, e := range old {
		if h, ok := head[name]; !ok || h.Hash != e.Hash || h.Mode != e.Mode || conflicted[name] {
			changed = append(changed, name)
		}
		if h, ok := head[name]; ok && h.Hash == e.Hash && h.Mode == e.Mode {
			kept = append(kept, e) // keep the stat data: the entry is what HEAD has
		}
	}
	for name, h := range head {
		if !selected(name) {
			continue
		}
		if e, ok := old[name]; ok && e.Hash == h.Hash && e.Mode == h.Mode {
			continue
		}
		if _, ok := old[name]; !ok {
			changed = append(changed, name)
		}
		// Size 0 tells git the stat data was never read: it compares the content instead of trusting it.
		kept = append(kept, &index.Entry{Name: name, Hash: h.Hash, Mode: h.Mode})
	}
	for name := range conflicted {
		if _, ok := old[name]; !ok && !slices.Contains(changed, name) {
			changed = append(changed, name)
		}
	}
	ix.ReplaceAll(kept)
	slices.Sort(changed)
	return slices.Compact(changed)
}
