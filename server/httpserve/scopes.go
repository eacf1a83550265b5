package httpserve

import (
	"context"
	"crypto/rand"
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Scopes decide what a token may do (docs/http.md): grove:read reaches
// every tool that only reads, plus resources, prompts and completion;
// grove:write reaches the write tools too, and implies grove:read. A token
// with neither gets 403 on every request. A token without grove:write does
// not see the write tools in tools/list, and a call to one is answered with
// an isError result: the refusal belongs to that tool call inside an
// established session, and a client that listed the tools never makes it.

// requireScope answers 403 insufficient_scope to a token with neither of
// grove's scopes, as RFC 6750 section 3.1 says, naming the scope it needs.
func (f *front) requireScope(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if ti := auth.TokenInfoFromContext(r.Context()); !canRead(ti) {
			challenge := fmt.Sprintf(`Bearer error="insufficient_scope", scope=%q`, ScopeRead)
			if f.prmURL != "" {
				challenge += fmt.Sprintf(`, resource_metadata=%q`, f.prmURL)
			}
			w.Header().Set("WWW-Authenticate", challenge)
			http.Error(w, "Forbidden: insufficient_scope: the token needs the "+ScopeRead+" scope", http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}

func canRead(ti *auth.TokenInfo) bool {
	return ti != nil && (slices.Contains(ti.Scopes, ScopeRead) || slices.Contains(ti.Scopes, ScopeWrite))
}

func canWrite(ti *auth.TokenInfo) bool {
	return ti != nil && slices.Contains(ti.Scopes, ScopeWrite)
}

// connIDPrefix starts the session IDs grove gives HTTP+SSE and WebSocket
// sessions, so that their tokens can be found (principals) and take does
// not count them twice.
const connIDPrefix = "conn-"

func newConnID() string { return connIDPrefix + rand.Text() }

// tokenOf finds the token behind a request: the SDK's record for
// Streamable HTTP, grove's for the connection-based transports.
func (f *front) tokenOf(req mcp.Request) *auth.TokenInfo {
	if ex := req.GetExtra(); ex != nil && ex.TokenInfo != nil {
		return ex.TokenInfo
	}
	ss, ok := req.GetSession().(*mcp.ServerSession)
	if !ok || ss == nil {
		return nil
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.principals[ss.ID()]
}

func (f *front) addPrincipal(id string, ti *auth.TokenInfo) {
	f.mu.Lock()
	f.principals[id] = ti
	f.mu.Unlock()
}

func (f *front) removePrincipal(id string) {
	f.mu.Lock()
	delete(f.principals, id)
	f.mu.Unlock()
}

// scopeTools is receiving middleware on every transport: for a token
// without grove:write, tools/list leaves the write tools out and
// tools/call refuses them.
func (f *front) scopeTools(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method == "tools/list" {
			res, err := next(ctx, method, req)
			if r, ok := res.(*mcp.ListToolsResult); ok && r != nil {
				f.noteTools(r.Tools)
				if !canWrite(f.tokenOf(req)) {
					r.Tools = slices.DeleteFunc(r.Tools, func(t *mcp.Tool) bool { return !readOnly(t) })
				}
			}
			return res, err
		}
		if method != "tools/call" || canWrite(f.tokenOf(req)) {
			return next(ctx, method, req)
		}
		p, _ := req.GetParams().(*mcp.CallToolParamsRaw)
		if p == nil {
			return next(ctx, method, req)
		}
		if ro, known := f.readOnlyTool(ctx, p.Name); known && !ro {
			return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{
				Text: fmt.Sprintf("insufficient_scope: %s writes, and this token lacks the %s scope", p.Name, ScopeWrite)}}}, nil
		}
		return next(ctx, method, req) // an unknown tool: the SDK says so
	}
}

func readOnly(t *mcp.Tool) bool { return t.Annotations != nil && t.Annotations.ReadOnlyHint }

// toolsRefreshGap bounds how often a call naming a tool grove has not
// listed makes it list its tools again.
const toolsRefreshGap = 5 * time.Second

// readOnlyTool reports whether the tool name only reads, and whether grove
// has such a tool, as the last tools/list said; a name not known yet makes
// grove list its tools again (at most once per toolsRefreshGap).
func (f *front) readOnlyTool(ctx context.Context, name string) (ro, known bool) {
	f.mu.Lock()
	ro, known = f.tools[name]
	stale := time.Since(f.listed) > toolsRefreshGap
	f.mu.Unlock()
	if known || !stale {
		return ro, known
	}
	if err := f.listTools(ctx); err != nil {
		f.logger.Warn("listing tools for a scope check failed", "err", err)
		return false, true // refuse rather than let a write through
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	ro, known = f.tools[name]
	return ro, known
}

// noteTools records what a tools/list answer (unfiltered) says of each
// tool.
func (f *front) noteTools(tools []*mcp.Tool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.tools == nil {
		f.tools = make(map[string]bool)
	}
	for _, t := range tools {
		f.tools[t.Name] = readOnly(t)
	}
	f.listed = time.Now()
}

// listTools lists grove's tools through a session of its own, in memory;
// scopeTools notes them on the way.
func (f *front) listTools(ctx context.Context) error {
	st, ct := mcp.NewInMemoryTransports()
	ss, err := f.mcp.Connect(ctx, st, nil)
	if err != nil {
		return err
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "grove-scopes", Version: "1"}, nil).Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: legacyVersion})
	if err != nil {
		return err
	}
	defer cs.Close()
	for _, err := range cs.Tools(ctx, nil) {
		if err != nil {
			return err
		}
	}
	return nil
}

// legacyVersion is the protocol grove's own in-memory session speaks.
const legacyVersion = "2025-11-25"
