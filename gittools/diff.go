package gittools

import (
	"context"

	"github.com/grove-mcp/grove/gittools/internal/diff"

	"github.com/grove-mcp/grove/gittools/internal/patchtext"
	"github.com/grove-mcp/grove/gittools/internal/repo"
	"github.com/grove-mcp/grove/roots"
	"github.com/grove-mcp/grove/scope"
	"github.com/modelcontextprotocol/go-sdk/mcp"
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

func (r *Repos) diffTool(ctx context.Context, _ *mcp.CallToolRequest, sc *roots.Scope, in diff.DiffArgs) (*mcp.CallToolResult, diff.DiffOut, error) {
	ctxLines, err := diff.ContextLines(in.ContextLines)
	if err != nil {
		return nil, diff.DiffOut{}, err
	}
	rp, unlock, err := r.openHistory(ctx, sc, impliedRepo(sc, in.RepoPath, in.Path))
	if err != nil {
		return nil, diff.DiffOut{}, err
	}
	defer unlock()
	if _, _, between := repo.SplitRange(in.Target); rp.Bare && !between {
		return nil, diff.DiffOut{}, repo.ErrBare(in.RepoPath)
	}
	limit, err := rp.RepoRel(sc, in.Path)
	if err != nil {
		return nil, diff.DiffOut{}, err
	}
	changes, unmergedPaths, err := diff.Changes(rp, ctx, in.Staged, in.Target, limit)
	if err != nil {
		return nil, diff.DiffOut{}, err
	}
	out, text, err := diff.Render(rp, ctx, changes, ctxLines, in.StatOnly)
	if err != nil {
		return nil, diff.DiffOut{}, err
	}
	out.Unmerged = unmergedPaths
	for _, p := range unmergedPaths {
		text = "* Unmerged path " + patchtext.QuotePath(p) + "\n" + text
	}
	if text == "" {
		text = "no changes\n"
	}
	return textResult(text), out, nil
}
