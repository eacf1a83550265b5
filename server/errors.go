package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"strconv"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// legacyResourceNotFound is the code legacy protocol versions (up to
// 2025-11-25) use for a missing resource; 2026-07-28 uses invalid params.
const legacyResourceNotFound = -32002

// resourceMethods are the methods whose not-found answer has a code of its
// own in the legacy era.
var resourceMethods = map[string]bool{"resources/read": true, "resources/subscribe": true, "resources/unsubscribe": true}

// eraErrors gives legacy clients the resource-not-found code of their era
// (the SDK answers -32602 in both), and every error data that is JSON.
func eraErrors(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if err == nil {
			return res, nil
		}
		err = jsonData(err)
		if isModern(req) || !resourceMethods[method] {
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

// mcp.ResourceNotFoundError builds its data with fmt.Sprintf(`{"uri":%q}`),
// and Go's quoting is not JSON's: a URI holding a control character
// ("\x00", "\x1b", "\x7f") makes data no encoder takes, and the SDK ends
// the session when it cannot write the answer. fsres, scope and the
// subscription handler return it; the SDK does too when no template matches
// a URI.

// jsonData returns err with data that is JSON: a not-found error's data
// rebuilt from the URI it quotes, any other data that is not JSON dropped.
// Only an unwrapped *jsonrpc.Error sends its data.
func jsonData(err error) error {
	rpcErr, ok := err.(*jsonrpc.Error)
	if !ok || rpcErr == nil || len(rpcErr.Data) == 0 || json.Valid(rpcErr.Data) {
		return err
	}
	fixed := *rpcErr
	fixed.Data = nil
	if quoted, ok := bytes.CutPrefix(rpcErr.Data, []byte(`{"uri":`)); ok {
		if uri, err := strconv.Unquote(string(bytes.TrimSuffix(quoted, []byte("}")))); err == nil {
			fixed.Data = resourceData(uri)
		}
	}
	return &fixed
}

func resourceData(uri string) json.RawMessage {
	data, _ := json.Marshal(struct {
		URI string `json:"uri"`
	}{uri}) // a struct of one string always encodes
	return data
}

// recoverPanics turns a panic in any method's handler into an internal error
// for that request, logged with its stack, instead of the end of the process:
// the SDK recovers nothing, and a repository's files (an index, a
// commit-graph) are input grove does not control, parsed partly by libraries.
// The client sees no details.
func recoverPanics(log *slog.Logger) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (res mcp.Result, err error) {
			defer func() {
				if p := recover(); p != nil {
					log.Error("handler panicked", "method", method, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
					res, err = nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError,
						Message: "internal error in " + method + ": grove hit a bug and logged it; the session goes on"}
				}
			}()
			return next(ctx, method, req)
		}
	}
}
