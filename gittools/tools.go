package gittools

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// registerReadTools adds the tools that only read repositories.
func (r *Repos) registerReadTools(s *mcp.Server) {
	r.addStatus(s)
	r.addLog(s)
	r.addDiff(s)
	r.addShow(s)
	r.addBlame(s)
	r.addBranch(s)
	r.addTag(s)
}

// progressFunc returns a callback sending progress notifications for req, or nil when the client sent no token.
func progressFunc(ctx context.Context, req *mcp.CallToolRequest, message string) func(int) {
	if req == nil || req.Params == nil || req.Session == nil {
		return nil
	}
	token := req.Params.GetProgressToken()
	if token == nil {
		return nil
	}
	return func(n int) {
		_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
			ProgressToken: token, Progress: float64(n), Message: message,
		})
	}
}
