// Package diff owns the changes between trees, the index and the worktree
// (with exact renames for staged changes), git_diff's arguments and answer,
// and rendering changes as patches within the answer's byte budget. It also
// owns git_show's views of a commit (header and patch), a file and a
// directory at a revision.
//
//	changes, untracked, err := diff.Changes(rp, ctx, staged, target, limit)
//	out, text, err := diff.Render(rp, ctx, changes, contextLines, statOnly)
package diff

import (
	"context"
	"errors"
	"fmt"

	"github.com/grove-mcp/grove/gittools/internal/repo"

	"github.com/go-git/go-git/v5/plumbing"
)

// DiffArgs are the arguments of git_diff.
type DiffArgs struct {
	RepoPath     string `json:"repo_path,omitempty" jsonschema:"the repository or a directory in it: absolute path or file:// URI inside a root (default: the only root; with several, the root holding path when path is absolute)"`
	Staged       bool   `json:"staged,omitempty" jsonschema:"show staged changes (index vs HEAD) instead of unstaged ones (worktree vs index)"`
	Target       string `json:"target,omitempty" jsonschema:"a revision to compare the worktree with, or a range a..b to compare two commits"`
	Path         string `json:"path,omitempty" jsonschema:"only changes to this file or directory (relative to the worktree, or absolute)"`
	ContextLines *int   `json:"context_lines,omitempty" jsonschema:"lines of context around each change (default 3)"`
	StatOnly     bool   `json:"stat_only,omitempty" jsonschema:"list changed files with line counts instead of the patch"`
}

// DiffOut is the structured result of git_diff.
type DiffOut struct {
	Files     []DiffFile `json:"files" jsonschema:"changed files in path order"`
	Unmerged  []string   `json:"unmerged,omitempty" jsonschema:"paths with merge conflicts (not diffed)"`
	Patch     string     `json:"patch,omitempty" jsonschema:"unified diff as git prints it (absent with stat_only)"`
	Truncated bool       `json:"truncated,omitempty" jsonschema:"the patch was cut; see the note at its end"`
}

// DiffFile is one changed file.
type DiffFile struct {
	Path     string `json:"path"`
	OldPath  string `json:"old_path,omitempty" jsonschema:"for a rename: the path before"`
	Status   string `json:"status" jsonschema:"A added, D deleted, M modified, R renamed (identical content), T type changed"`
	Added    int    `json:"added"`
	Deleted  int    `json:"deleted"`
	Binary   bool   `json:"binary,omitempty"`
	TooLarge bool   `json:"too_large,omitempty" jsonschema:"a side is over the server's --max-file-size: described, not diffed"`
	Omitted  bool   `json:"omitted,omitempty" jsonschema:"not in the patch because of the size cap"`
}

const (
	DefaultContext = 3
	maxContext     = 10000
	// MaxPatchBytes caps a patch: an agent gains nothing from megabytes of diff, and it costs its context.
	MaxPatchBytes = 100 << 10
)

func ContextLines(p *int) (int, error) {
	if p == nil {
		return DefaultContext, nil
	}
	if *p < 0 || *p > maxContext {
		return 0, fmt.Errorf("context_lines must be between 0 and %d", maxContext)
	}
	return *p, nil
}

// Changes picks the comparison the arguments ask for.
func Changes(rp *repo.Repo, ctx context.Context, staged bool, target, limit string) ([]change, []string, error) {
	if staged && target != "" {
		return nil, nil, errors.New("staged and target cannot be combined")
	}
	if target == "" {
		idx, err := rp.Index()
		if err != nil {
			return nil, nil, err
		}
		if staged {
			return changesStaged(rp, ctx, idx, limit)
		}
		return changesWorktree(rp, ctx, idx, limit)
	}
	if err := repo.ValidRevision(target); err != nil {
		return nil, nil, err
	}
	if a, b, ok := repo.SplitRange(target); ok {
		ta, err := revTree(rp, a)
		if err != nil {
			return nil, nil, err
		}
		tb, err := revTree(rp, b)
		if err != nil {
			return nil, nil, err
		}
		cs, err := Trees(rp, ctx, ta, tb, limit)
		return cs, nil, err
	}
	t, err := revTree(rp, target)
	if err != nil {
		return nil, nil, err
	}
	idx, err := rp.Index()
	if err != nil {
		return nil, nil, err
	}
	cs, err := changesTreeWorktree(rp, ctx, idx, t, limit)
	return cs, nil, err
}

// revTree resolves rev ("" = HEAD) to its commit's tree.
func revTree(rp *repo.Repo, rev string) (plumbing.Hash, error) {
	if rev == "" {
		rev = "HEAD"
	}
	c, err := rp.Commit(rev)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	return c.TreeHash, nil
}
