package gittools

import (
	"cmp"
	"context"
	"fmt"

	"github.com/grove-mcp/grove/gittools/internal/blame"

	"github.com/grove-mcp/grove/roots"
	"github.com/grove-mcp/grove/scope"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func (r *Repos) addBlame(s *mcp.Server) {
	scope.AddTool(s, &mcp.Tool{
		Name:        "git_blame",
		Title:       "Git blame",
		Description: "Show which commit last changed each line of a committed file (at revision, default HEAD); limit with start_line/end_line.",
		Annotations: readOnlyTool(),
	}, r.opts.Scope, r.blameTool)
}

func (r *Repos) blameTool(ctx context.Context, _ *mcp.CallToolRequest, sc *roots.Scope, in blame.BlameArgs) (*mcp.CallToolResult, blame.BlameOut, error) {
	if in.Path == "" {
		return nil, blame.BlameOut{}, fmt.Errorf("path is required")
	}
	if in.StartLine < 0 || in.EndLine < 0 || in.EndLine > 0 && in.EndLine < in.StartLine {
		return nil, blame.BlameOut{}, fmt.Errorf("invalid line range %d-%d", in.StartLine, in.EndLine)
	}
	rp, unlock, err := r.openHistory(ctx, sc, impliedRepo(sc, in.RepoPath, in.Path))
	if err != nil {
		return nil, blame.BlameOut{}, err
	}
	defer unlock()
	p, err := rp.RepoRel(sc, in.Path)
	if err != nil {
		return nil, blame.BlameOut{}, err
	}
	opts := blame.Options{Graph: r.history.Graph(rp), Index: r.history.Index(rp)}
	out, err := blame.File(rp, ctx, p, in, opts)
	if err != nil {
		return nil, blame.BlameOut{}, err
	}
	if !opts.Graph.HasFilters() {
		// Index this history for later blames and logs (in the background, once), as git_log does: the next
		// blame skips the trees of commits that did not change its file.
		if c, err := rp.Commit(cmp.Or(in.Revision, "HEAD")); err == nil {
			r.history.Extend(rp, c.Hash)
		}
	}
	return textResult(blame.Format(out, in)), out, nil
}
