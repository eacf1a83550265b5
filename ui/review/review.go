// Package review serves grove's review view: an MCP App (the MCP Apps
// extension, SEP-1865, id io.modelcontextprotocol/ui) that shows the result
// of git_diff and git_show as a file list with counts and an inline or
// side-by-side diff with collapsible hunks and keyboard navigation.
//
// The view is one self-contained HTML file embedded in the binary
// (review.html: no network, a Content-Security-Policy that allows only its
// own script, by hash). It is offered only to hosts that declare the
// extension in their client capabilities; every other client gets
// byte-identical answers to a server without it.
//
//	server.AddReceivingMiddleware(review.Middleware)
//
// For such a host, [Middleware] adds _meta.ui.resourceUri = [URI] to the
// git_diff and git_show tools in tools/list and to the review prompts in
// prompts/list, and answers resources/read of [URI] with the HTML (MIME type
// [MIMEType]). The view renders the tool result's structuredContent.
package review

import (
	"context"
	_ "embed"
	"maps"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const (
	// URI names the view.
	URI = "ui://grove/review"
	// MIMEType is the MCP Apps HTML profile.
	MIMEType = "text/html;profile=mcp-app"
	// Extension is the id a host declares in its client capabilities'
	// extensions to get the view.
	Extension = "io.modelcontextprotocol/ui"
)

//go:embed review.html
var html string

// tools and prompts are linked to the view.
var (
	tools   = []string{"git_diff", "git_show"}
	prompts = []string{"review_changes", "review_commit"}
)

// Middleware offers the view to hosts that declare [Extension]; for every
// other client it passes each request through untouched.
func Middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if !declares(req) {
			return next(ctx, method, req)
		}
		if p, ok := req.GetParams().(*mcp.ReadResourceParams); ok && method == "resources/read" && p != nil && p.URI == URI {
			return resource(), nil
		}
		res, err := next(ctx, method, req)
		if err != nil {
			return res, err
		}
		switch r := res.(type) {
		case *mcp.ListToolsResult:
			return linkTools(r), nil
		case *mcp.ListPromptsResult:
			return linkPrompts(r), nil
		}
		return res, nil
	}
}

// declares reports whether the client of req declares the extension: in
// the session's initialize (legacy) or the request's _meta (modern).
func declares(req mcp.Request) bool {
	r, ok := req.(interface {
		ClientCapabilities() *mcp.ClientCapabilities
	})
	if !ok {
		return false
	}
	caps := r.ClientCapabilities()
	if caps == nil {
		return false
	}
	_, ok = caps.Extensions[Extension]
	return ok
}

// resource is the answer to resources/read of URI. Its _meta.ui.csp lists
// no origin: the view fetches nothing.
func resource() *mcp.ReadResourceResult {
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{
		URI: URI, MIMEType: MIMEType, Text: html,
		Meta: mcp.Meta{"ui": map[string]any{
			"csp":           map[string]any{"connectDomains": []string{}, "resourceDomains": []string{}},
			"prefersBorder": true,
		}},
	}}}
}

// uiMeta returns m with ui.resourceUri set, leaving m unchanged.
func uiMeta(m mcp.Meta) mcp.Meta {
	out := maps.Clone(m)
	if out == nil {
		out = mcp.Meta{}
	}
	ui := map[string]any{}
	if old, ok := out["ui"].(map[string]any); ok {
		ui = maps.Clone(old)
	}
	ui["resourceUri"] = URI
	out["ui"] = ui
	return out
}

// linkTools returns a copy of r whose linked tools carry the view's URI.
func linkTools(r *mcp.ListToolsResult) *mcp.ListToolsResult {
	cp := *r
	cp.Tools = slices.Clone(r.Tools)
	for i, t := range cp.Tools {
		if t != nil && slices.Contains(tools, t.Name) {
			tc := *t
			tc.Meta = uiMeta(t.Meta)
			cp.Tools[i] = &tc
		}
	}
	return &cp
}

// linkPrompts returns a copy of r whose review prompts carry the view's URI.
func linkPrompts(r *mcp.ListPromptsResult) *mcp.ListPromptsResult {
	cp := *r
	cp.Prompts = slices.Clone(r.Prompts)
	for i, p := range cp.Prompts {
		if p != nil && slices.Contains(prompts, p.Name) {
			pc := *p
			pc.Meta = uiMeta(p.Meta)
			cp.Prompts[i] = &pc
		}
	}
	return &cp
}
