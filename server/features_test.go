package server

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/grove-mcp/grove/internal/servertest"
	"github.com/grove-mcp/grove/roots"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// file://localhost/ names the same file as file:///, in both eras; outside
// the roots it is as missing as ever.
func TestReadLocalhostURI(t *testing.T) {
	for _, era := range servertest.Eras {
		t.Run(era, func(t *testing.T) {
			dir := servertest.RealTemp(t)
			name := filepath.Join(dir, "a.txt")
			servertest.Write(t, name, "hello\n")
			cs, _, _ := connect(t, Config{Roots: []string{dir}}, era)
			for _, uri := range []string{
				"file://localhost" + filepath.ToSlash(name),
				"FILE://LOCALHOST" + filepath.ToSlash(name),
			} {
				res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uri})
				if err != nil || len(res.Contents) != 1 || res.Contents[0].Text != "hello\n" {
					t.Errorf("resources/read %s: %+v, %v", uri, res, err)
				}
			}
			outside := "file://localhost" + filepath.ToSlash(filepath.Dir(dir)) + "/elsewhere.txt"
			_, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: outside})
			var rpcErr *jsonrpc.Error
			if !errors.As(err, &rpcErr) || strings.Contains(rpcErr.Message, "hello") {
				t.Errorf("resources/read outside: %v, want not found", err)
			}
			if got := withoutLocalhost(roots.URI(name)); got != roots.URI(name) {
				t.Errorf("withoutLocalhost changed a file:/// URI to %s", got)
			}
		})
	}
}
