package httpserve

import (
	"context"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/grove-mcp/grove/internal/servertest"
	"github.com/grove-mcp/grove/roots"
	"github.com/grove-mcp/grove/server"
)

// BenchmarkHTTPReadResource reads a 4 KiB file over HTTP in one session of
// each era (bench/http.sh measures many sessions against the binary).
func BenchmarkHTTPReadResource(b *testing.B) {
	for _, era := range servertest.Eras {
		b.Run(era, func(b *testing.B) {
			dir := b.TempDir()
			dir, _ = filepath.EvalSymlinks(dir)
			f := filepath.Join(dir, "f.txt")
			servertest.Write(b, f, strings.Repeat("x", 4<<10))
			g := startHTTP(b, server.Config{Roots: []string{dir}}, Config{})
			client := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
			cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: g.url,
				HTTPClient: &http.Client{Transport: bearer{testToken}}}, &mcp.ClientSessionOptions{ProtocolVersion: era})
			if err != nil {
				b.Fatal(err)
			}
			defer cs.Close()
			params := &mcp.ReadResourceParams{URI: roots.URI(f)}
			b.ResetTimer()
			for b.Loop() {
				if _, err := cs.ReadResource(context.Background(), params); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
