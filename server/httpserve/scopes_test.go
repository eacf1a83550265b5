package httpserve

import (
	"context"
	"errors"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/grove-mcp/grove/internal/servertest"
	"github.com/grove-mcp/grove/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A read-only token sees no write tool and cannot call one, over every
// transport and in both eras; a full token can.
func TestReadOnlyTokenOnEveryTransport(t *testing.T) {
	dir := servertest.RealTemp(t)
	ro := startHTTP(t, server.Config{Roots: []string{dir}}, Config{TokenReadOnly: true})
	rw := startHTTP(t, server.Config{Roots: []string{dir}}, Config{})
	type conn struct {
		name string
		era  string
		tr   func(g *httpGrove) mcp.Transport
	}
	hc := &http.Client{Transport: bearer{testToken}}
	conns := []conn{
		{"streamable legacy", servertest.Legacy, func(g *httpGrove) mcp.Transport {
			return &mcp.StreamableClientTransport{Endpoint: g.url, HTTPClient: hc}
		}},
		{"streamable modern", servertest.Modern, func(g *httpGrove) mcp.Transport {
			return &mcp.StreamableClientTransport{Endpoint: g.url, HTTPClient: hc}
		}},
		{"sse", servertest.Legacy, func(g *httpGrove) mcp.Transport { return &mcp.SSEClientTransport{Endpoint: g.sseURL(), HTTPClient: hc} }},
		{"websocket legacy", servertest.Legacy, func(g *httpGrove) mcp.Transport { return wsClientTransport{url: g.wsURL(), hdr: authHeader()} }},
		{"websocket modern", servertest.Modern, func(g *httpGrove) mcp.Transport { return wsClientTransport{url: g.wsURL(), hdr: authHeader()} }},
	}
	for _, c := range conns {
		t.Run(c.name, func(t *testing.T) {
			target := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "-")+".txt")
			args := map[string]any{"path": target, "content": "x"}
			cs, _, _ := connectOver(t, c.tr(ro), c.era)
			if names := toolNames(t, cs); slices.Contains(names, "write_file") || !slices.Contains(names, "read_file") {
				t.Errorf("read-only tools/list: %v", names)
			}
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "write_file", Arguments: args})
			if err != nil || !res.IsError || !strings.Contains(textOf(res), "insufficient_scope") {
				t.Errorf("write_file with a read-only token: %v, %+v", err, res)
			}
			if _, err := os.Stat(target); !errors.Is(err, fs.ErrNotExist) {
				t.Fatalf("the write happened: %v", err)
			}
			if res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "list_roots", Arguments: map[string]any{}}); err != nil || res.IsError {
				t.Errorf("a read tool with a read-only token: %v, %+v", err, res)
			}

			cs, _, _ = connectOver(t, c.tr(rw), c.era)
			if names := toolNames(t, cs); !slices.Contains(names, "write_file") {
				t.Errorf("full tools/list: %v", names)
			}
			res, err = cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "write_file", Arguments: args})
			if err != nil || res.IsError {
				t.Fatalf("write_file with a full token: %v, %+v", err, res)
			}
			if _, err := os.Stat(target); err != nil {
				t.Errorf("the write did not happen: %v", err)
			}
		})
	}
}

func toolNames(t *testing.T, cs *mcp.ClientSession) []string {
	t.Helper()
	var names []string
	for tool, err := range cs.Tools(context.Background(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, tool.Name)
	}
	return names
}

func textOf(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}
