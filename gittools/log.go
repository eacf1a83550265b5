package gittools

import (
	"context"

	"github.com/grove-mcp/grove/gittools/internal/history"

	"github.com/grove-mcp/grove/roots"
	"github.com/grove-mcp/grove/scope"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func (r *Repos) addLog(s *mcp.Server) {
	scope.AddTool(s, &mcp.Tool{
		Name:  "git_log",
		Title: "Git log",
		Description: "Show commits newest first, one line each (short hash, date, author, subject), like " +
			"`git log --oneline`. Filter by path (git's default history simplification), author, date and message.",
		Annotations: readOnlyTool(),
	}, r.opts.Scope, r.logTool)
}

func (r *Repos) logTool(ctx context.Context, req *mcp.CallToolRequest, sc *roots.Scope, in history.LogArgs) (*mcp.CallToolResult, history.LogOut, error) {
	rp, unlock, err := r.openHistory(ctx, sc, impliedRepo(sc, in.RepoPath, in.Path))
	if err != nil {
		return nil, history.LogOut{}, err
	}
	defer unlock()
	q, err := history.NewQuery(rp, sc, in)
	if err != nil {
		return nil, history.LogOut{}, err
	}
	q.Progress = progressFunc(ctx, req, "walking history")
	q.Cache = &r.history
	out, err := history.Log(rp, ctx, q)
	if err != nil {
		return nil, history.LogOut{}, err
	}
	return textResult(history.Format(out, q)), out, nil
}

// backgroundOpen is background for work started by a tool call, which may still run while Close waits:
// after Close it does nothing.
func (r *Repos) backgroundOpen(what string, f func()) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.closed {
		r.background(what, f)
	}
}
