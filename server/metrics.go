package server

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/grove-mcp/grove/metrics"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// instrument feeds cfg.Metrics: it times every request and counts every
// notification of s's sessions, and adds s's gauges. Without metrics it adds
// nothing, so a server run without them pays nothing. It must run after the
// other receiving middleware is added, so that it is the outermost and times
// the whole answer, with the error as the client gets it.
func (s *Server) instrument() {
	m := s.cfg.Metrics
	if m == nil {
		return
	}
	s.mcp.AddReceivingMiddleware(timeRequests(m))
	s.mcp.AddSendingMiddleware(countNotifications(m))
	remove := m.AddGauges(s.gauges())
	s.closer = append(s.closer, func() error { remove(); return nil })
}

// gauges are the values this server holds: its sessions and subscriptions,
// and the watcher and repositories it uses.
func (s *Server) gauges() metrics.Gauges {
	return metrics.Gauges{
		Sessions: func() int {
			n := 0
			for range s.mcp.Sessions() {
				n++
			}
			return n
		},
		Subscriptions: s.notify.count,
		WatchedDirs:   func() int { return s.notify.w.Status().Watches },
		WatchDegraded: func() bool { return s.notify.w.Status().Degraded },
		OpenRepos:     s.repos.OpenCount,
		GrepIndex:     s.files.GrepIndexMemory,
	}
}

// count returns the subscriptions held, dormant ones included.
func (n *notifier) count() int {
	n.mu.Lock()
	defer n.mu.Unlock()
	total := 0
	for _, uris := range n.sess {
		total += len(uris)
	}
	return total
}

// timeRequests records each request's method, outcome and duration, and for
// tools/call the tool's.
func timeRequests(m *metrics.Metrics) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			start := time.Now()
			res, err := next(ctx, method, req)
			d := time.Since(start)
			outcome := outcomeOf(ctx, res, err)
			m.ObserveRequest(method, outcome, d)
			if p, ok := req.GetParams().(*mcp.CallToolParamsRaw); ok && p != nil && method == "tools/call" {
				m.ObserveTool(p.Name, !unknownTool(err), outcome, d)
			}
			return res, err
		}
	}
}

// outcomeOf classifies an answer: cancelled if the client cancelled or left
// before it, else by its error's code, else by the result.
func outcomeOf(ctx context.Context, res mcp.Result, err error) metrics.Outcome {
	if ctx.Err() != nil {
		return metrics.OutcomeCancelled
	}
	if err != nil {
		return metrics.ErrorOutcome(err)
	}
	switch r := res.(type) { // a typed nil result must not panic here
	case *mcp.CallToolResult:
		switch {
		case r == nil:
		case r.NeedsInput():
			return metrics.OutcomeInputRequired
		case r.IsError:
			return metrics.OutcomeToolError
		}
	case *mcp.ReadResourceResult:
		if r != nil && r.NeedsInput() {
			return metrics.OutcomeInputRequired
		}
	case *mcp.GetPromptResult:
		if r != nil && r.NeedsInput() {
			return metrics.OutcomeInputRequired
		}
	}
	return metrics.OutcomeOK
}

// unknownTool reports whether err is the SDK's answer to a tools/call naming
// no tool of the server's: its name must not become a label.
func unknownTool(err error) bool {
	var rpc *jsonrpc.Error
	return errors.As(err, &rpc) && rpc.Code == jsonrpc.CodeInvalidParams && strings.HasPrefix(rpc.Message, "unknown tool")
}

// countNotifications counts each notification written to a session, and each
// one whose writing failed.
func countNotifications(m *metrics.Metrics) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			res, err := next(ctx, method, req)
			if strings.HasPrefix(method, "notifications/") {
				if err != nil {
					m.NotificationDropped(method, metrics.DropSendFailed)
				} else {
					m.NotificationSent(method)
				}
			}
			return res, err
		}
	}
}
