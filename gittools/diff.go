package gittools

import (
	"context"
	"errors"
	"fmt"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/grove-mcp/grove/roots"
	"github.com/grove-mcp/grove/scope"
)

// DiffArgs are the arguments of git_diff.
type DiffArgs struct {
	RepoPath     string `json:"repo_path,omitempty" jsonschema:"absolute path or file:// URI inside a root; optional when there is exactly one root"`
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
	defaultContext = 3
	maxContext     = 10000
	// maxPatchBytes caps a patch: an agent gains nothing from megabytes of diff, and it costs its context.
	maxPatchBytes = 100 << 10
)

func (r *Repos) addDiff(s *mcp.Server) {
	scope.AddTool(s, &mcp.Tool{
		Name:  "git_diff",
		Title: "Git diff",
		Description: "Show changes as a unified diff: by default unstaged changes (worktree vs index); staged=true " +
			"for index vs HEAD; target=REV for REV vs the worktree, or target=A..B between two commits. Binary files " +
			"are named, not dumped; long patches are cut at 100 KB with a note (use path or stat_only).",
		Annotations: readOnlyTool(),
	}, r.opts.Scope, r.diffTool)
}

func (r *Repos) diffTool(ctx context.Context, _ *mcp.CallToolRequest, sc *roots.Scope, in DiffArgs) (*mcp.CallToolResult, DiffOut, error) {
	ctxLines, err := contextLines(in.ContextLines)
	if err != nil {
		return nil, DiffOut{}, err
	}
	rp, unlock, err := r.open(ctx, sc, in.RepoPath)
	if err != nil {
		return nil, DiffOut{}, err
	}
	defer unlock()
	limit, err := rp.repoRel(sc, in.Path)
	if err != nil {
		return nil, DiffOut{}, err
	}
	changes, unmergedPaths, err := rp.diffChanges(ctx, in.Staged, in.Target, limit)
	if err != nil {
		return nil, DiffOut{}, err
	}
	out, text, err := rp.render(ctx, changes, ctxLines, in.StatOnly)
	if err != nil {
		return nil, DiffOut{}, err
	}
	out.Unmerged = unmergedPaths
	for _, p := range unmergedPaths {
		text = "* Unmerged path " + quotePath(p) + "\n" + text
	}
	if text == "" {
		text = "no changes\n"
	}
	return textResult(text), out, nil
}

func contextLines(p *int) (int, error) {
	if p == nil {
		return defaultContext, nil
	}
	if *p < 0 || *p > maxContext {
		return 0, fmt.Errorf("context_lines must be between 0 and %d", maxContext)
	}
	return *p, nil
}

// diffChanges picks the comparison the arguments ask for.
func (rp *repo) diffChanges(ctx context.Context, staged bool, target, limit string) ([]change, []string, error) {
	if staged && target != "" {
		return nil, nil, errors.New("staged and target cannot be combined")
	}
	if target == "" {
		idx, err := rp.index()
		if err != nil {
			return nil, nil, err
		}
		if staged {
			return rp.changesStaged(ctx, idx, limit)
		}
		return rp.changesWorktree(ctx, idx, limit)
	}
	if err := validRevision(target); err != nil {
		return nil, nil, err
	}
	if a, b, ok := splitRange(target); ok {
		ta, err := rp.revTree(a)
		if err != nil {
			return nil, nil, err
		}
		tb, err := rp.revTree(b)
		if err != nil {
			return nil, nil, err
		}
		cs, err := rp.diffTrees(ctx, ta, tb, limit)
		return cs, nil, err
	}
	t, err := rp.revTree(target)
	if err != nil {
		return nil, nil, err
	}
	idx, err := rp.index()
	if err != nil {
		return nil, nil, err
	}
	cs, err := rp.changesTreeWorktree(ctx, idx, t, limit)
	return cs, nil, err
}

// revTree resolves rev ("" = HEAD) to its commit's tree.
func (rp *repo) revTree(rev string) (plumbing.Hash, error) {
	if rev == "" {
		rev = "HEAD"
	}
	c, err := rp.commit(rev)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	return c.TreeHash, nil
}
