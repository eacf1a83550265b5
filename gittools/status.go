package gittools

import (
	"context"

	"github.com/grove-mcp/grove/gittools/internal/status"

	"github.com/grove-mcp/grove/roots"
	"github.com/grove-mcp/grove/scope"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func (r *Repos) addStatus(s *mcp.Server) {
	scope.AddTool(s, &mcp.Tool{
		Name:  "git_status",
		Title: "Git status",
		Description: "Show the working tree status like `git status --short --branch`: staged (X) and unstaged (Y) " +
			"changes, unmerged paths and untracked files (untracked directories collapsed to dir/).",
		Annotations: readOnlyTool(),
	}, r.opts.Scope, r.status)
}

func (r *Repos) status(ctx context.Context, req *mcp.CallToolRequest, sc *roots.Scope, in status.StatusArgs) (*mcp.CallToolResult, status.StatusOut, error) {
	rp, unlock, err := r.open(ctx, sc, in.RepoPath)
	if err != nil {
		return nil, status.StatusOut{}, err
	}
	defer unlock()
	out, err := status.Of(rp, ctx, progressFunc(ctx, req, "scanning worktree"))
	if err != nil {
		return nil, status.StatusOut{}, err
	}
	return textResult(status.Format(out)), out, nil
}
