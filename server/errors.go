package server

import (
	"context"
	"errors"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// legacyResourceNotFound is the code legacy protocol versions (up to
// 2025-11-25) use for a missing resource; 2026-07-28 uses invalid params.
const legacyResourceNotFound = -32002

// eraErrors gives legacy clients the resource-not-found code of their era.
// The SDK answers -32602 in both.
func eraErrors(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if err == nil || isModern(req) || (method != "resources/read" && method != "resources/subscribe") {
			return res, err
		}
		var rpcErr *jsonrpc.Error
		if errors.As(err, &rpcErr) && rpcErr.Code == jsonrpc.CodeInvalidParams && rpcErr.Message == "Resource not found" {
			legacyErr := *rpcErr
			legacyErr.Code = legacyResourceNotFound
			return res, &legacyErr
		}
		return res, err
	}
}
