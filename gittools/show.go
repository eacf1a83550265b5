package gittools

import (
	"context"
	"fmt"

	"github.com/grove-mcp/grove/gittools/internal/diff"

	"github.com/grove-mcp/grove/roots"
	"github.com/grove-mcp/grove/scope"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func (r *Repos) addShow(s *mcp.Server) {
	scope.AddTool(s, &mcp.Tool{
		Name:  "git_show",
		Title: "Git show",
		Description: "Show a commit: header, message and patch against its first parent (a root commit against the " +
			"empty tree). With path, show that file's content at the revision instead (binary files are described, not dumped).",
		Annotations: readOnlyTool(),
	}, r.opts.Scope, r.showTool)
}

func (r *Repos) showTool(ctx context.Context, _ *mcp.CallToolRequest, sc *roots.Scope, in diff.ShowArgs) (*mcp.CallToolResult, diff.ShowOut, error) {
	if in.Revision == "" {
		return nil, diff.ShowOut{}, fmt.Errorf("revision is required")
	}
	rp, unlock, err := r.openHistory(ctx, sc, impliedRepo(sc, in.RepoPath, in.Path))
	if err != nil {
		return nil, diff.ShowOut{}, err
	}
	defer unlock()
	c, err := rp.Commit(in.Revision)
	if err != nil {
		return nil, diff.ShowOut{}, err
	}
	if in.Path != "" {
		p, err := rp.RepoRel(sc, in.Path)
		if err != nil {
			return nil, diff.ShowOut{}, err
		}
		out, text, err := diff.ShowFile(rp, c, p, in.Path)
		return textResult(text), out, err
	}
	out, text, err := diff.ShowCommit(rp, ctx, c)
	if err != nil {
		return nil, diff.ShowOut{}, err
	}
	return textResult(text), out, nil
}
