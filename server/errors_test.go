package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A panicking handler costs its request an internal error, not the process.
func TestRecoverPanics(t *testing.T) {
	var logged strings.Builder
	log := slog.New(slog.NewTextHandler(&logged, nil))
	handler := recoverPanics(log)(func(context.Context, string, mcp.Request) (mcp.Result, error) {
		panic("kaboom in /secret/path")
	})
	res, err := handler(context.Background(), "tools/call", nil)
	var rpcErr *jsonrpc.Error
	if res != nil || !errors.As(err, &rpcErr) || rpcErr.Code != jsonrpc.CodeInternalError {
		t.Fatalf("got %v, %v; want an internal error", res, err)
	}
	if strings.Contains(rpcErr.Message, "kaboom") || strings.Contains(rpcErr.Message, "/secret") {
		t.Errorf("the client sees the panic: %q", rpcErr.Message)
	}
	if !strings.Contains(logged.String(), "kaboom") || !strings.Contains(logged.String(), "stack=") {
		t.Errorf("the panic was not logged with its stack: %s", logged.String())
	}
	ok := recoverPanics(log)(func(context.Context, string, mcp.Request) (mcp.Result, error) {
		return &mcp.CallToolResult{}, nil
	})
	if res, err := ok(context.Background(), "tools/call", nil); res == nil || err != nil {
		t.Errorf("a handler that returns normally gave %v, %v", res, err)
	}
}

// mcp.ResourceNotFoundError's data is Go-quoted; jsonData rebuilds it with
// encoding/json, and drops any other data that is not JSON.
func TestJSONData(t *testing.T) {
	for _, uri := range []string{"file:///a.txt\x00/x", "file:///a\x01", "file:///a\x1b[31m", "file:///a\x7f", "file:///é\u2028\"\\", "file:///\xff"} {
		err := jsonData(mcp.ResourceNotFoundError(uri))
		rpcErr, ok := err.(*jsonrpc.Error)
		if !ok {
			t.Fatalf("jsonData(not found %q) = %T", uri, err)
		}
		var data struct{ URI string }
		if jerr := json.Unmarshal(rpcErr.Data, &data); jerr != nil {
			t.Errorf("data for %q is not JSON: %s", uri, rpcErr.Data)
		}
		want := strings.ToValidUTF8(uri, "\ufffd")
		if data.URI != want || rpcErr.Code != jsonrpc.CodeInvalidParams || rpcErr.Message != "Resource not found" {
			t.Errorf("jsonData(not found %q) = code %d %q, uri %q", uri, rpcErr.Code, rpcErr.Message, data.URI)
		}
	}
	other := &jsonrpc.Error{Code: 1, Message: "m", Data: json.RawMessage("{\"a\":\"\\x00\"}")}
	if got := jsonData(other).(*jsonrpc.Error); got.Data != nil || got.Code != 1 || other.Data == nil {
		t.Errorf("jsonData(bad data) = %+v (original %+v); want a copy without data", got, other)
	}
	for _, err := range []error{errors.New("plain"), &jsonrpc.Error{Code: 2, Data: json.RawMessage(`{"ok":true}`)}, fmt.Errorf("wrapped: %w", other)} {
		if got := jsonData(err); got != err {
			t.Errorf("jsonData(%v) = %v, want it unchanged", err, got)
		}
	}
}
