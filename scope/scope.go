// Package scope hands each MCP handler the roots in force for its request.
//
// Client roots can differ per request: a modern (2026-07-28) client supplies
// them through a multi-round-trip input request, a legacy client once per
// session. Feature packages never keep a scope of their own; they wrap their
// handlers, and the server supplies the [Provider]:
//
//	scope.AddTool(s, &mcp.Tool{Name: "read_file"}, p, f.readFile)
//
//	func (f *Files) readFile(ctx context.Context, req *mcp.CallToolRequest, sc *roots.Scope, in ReadArgs) (*mcp.CallToolResult, ReadOut, error)
package scope

import (
	"context"
	"errors"

	"github.com/grove-mcp/grove/roots"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Provider decides the roots of a request.
type Provider interface {
	// Scope returns the roots in force for req, or the input requests to
	// answer first, when a modern client's roots are needed and not yet given.
	Scope(req mcp.Request) (*roots.Scope, mcp.InputRequestMap)
}

// ErrNoDirectory tells the model, and through it the user, that grove was
// given no directory at all, and how to give it one.
var ErrNoDirectory = errors.New("grove was started without a directory, and the client shared none it can use. " +
	"Start it with one: grove --root /path/to/project (or use a client that shares its workspace folders as roots)")

// ErrNoRoots says that grove has directories, but the client's roots all lie
// outside them, and how to fix that.
var ErrNoRoots = errors.New("grove has no directory to work in: none of the client's roots lies inside the " +
	"directories grove was started with (--root). Open a folder inside them in the client, or start grove with " +
	"--root /path/to/project; list_roots shows both")

// NoRootsError is the error for a request whose scope is empty: the
// provider's explanation when it has one (the server knows whether it was
// started without --root), else [ErrNoDirectory] for a [Static] provider and
// [ErrNoRoots] for others.
func NoRootsError(p Provider, req mcp.Request) error {
	if e, ok := p.(interface{ NoRoots(mcp.Request) error }); ok {
		return e.NoRoots(req)
	}
	if _, ok := p.(static); ok {
		return ErrNoDirectory
	}
	return ErrNoRoots
}

// RequestState marks a retry that carries the client's roots. It grants
// nothing: client roots can only narrow the operator's.
const RequestState = "grove:roots"

// Static returns a Provider that always answers sc.
func Static(sc *roots.Scope) Provider { return static{sc} }

type static struct{ sc *roots.Scope }

func (s static) Scope(mcp.Request) (*roots.Scope, mcp.InputRequestMap) { return s.sc, nil }

// Registrar is a Provider that hears of each tool [AddTool] has added to the
// server, once a tools/call can reach it: grove's server registers its tools
// in the background, and a first tools/call then waits for its own tool only.
type Registrar interface {
	Registered(tool string)
}

// ToolHandler is a typed tool handler that runs within a scope; see [AddTool].
type ToolHandler[In, Out any] func(ctx context.Context, req *mcp.CallToolRequest, sc *roots.Scope, in In) (*mcp.CallToolResult, Out, error)

// Prompt adapts a prompt handler: it asks for the client's roots when
// needed, and answers a JSON-RPC error when nothing is reachable.
func Prompt(p Provider, h func(ctx context.Context, req *mcp.GetPromptRequest, sc *roots.Scope) (*mcp.GetPromptResult, error)) mcp.PromptHandler {
	return func(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		sc, ask := p.Scope(req)
		if ask != nil {
			return &mcp.GetPromptResult{InputRequests: ask, RequestState: RequestState}, nil
		}
		if sc.Empty() {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: NoRootsError(p, req).Error()}
		}
		return h(ctx, req, sc)
	}
}

// Resource adapts a resource handler like [Prompt]. With no roots, every
// resource is not found.
func Resource(p Provider, h func(ctx context.Context, req *mcp.ReadResourceRequest, sc *roots.Scope) (*mcp.ReadResourceResult, error)) mcp.ResourceHandler {
	return func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		sc, ask := p.Scope(req)
		if ask != nil {
			return &mcp.ReadResourceResult{InputRequests: ask, RequestState: RequestState}, nil
		}
		if sc.Empty() {
			return nil, mcp.ResourceNotFoundError(req.Params.URI)
		}
		return h(ctx, req, sc)
	}
}
