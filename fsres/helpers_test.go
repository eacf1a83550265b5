package fsres

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/grove-mcp/grove/roots"
	"github.com/grove-mcp/grove/scope"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/tools/txtar"
)

const (
	legacy = "2025-11-25"
	modern = "2026-07-28"
)

// fixture is the tree most tests use: root holds the files, outside a secret
// that must never leak.
const fixture = `
-- .gitignore --
*.log
build/
-- a.txt --
hello
world
-- src/main.go --
package main

func main() {
	println("Hello")
}
-- src/util/helper.go --
package util

// Helper helps.
func Helper() string { return "hello helper" }
-- docs/readme.md --
# Readme
Say HELLO.
-- empty.txt --
-- app.log --
hello from a log
-- build/out.txt --
hello from build
`

// pngBytes is a 1x1 PNG.
var pngBytes = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc\x00\x01\x00\x00\x05\x00\x01\r\n-\xb4\x00\x00\x00\x00IEND\xaeB`\x82")

// testTree builds the fixture in a temp dir and returns (root, outside).
func testTree(t testing.TB) (string, string) {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	root, outside := filepath.Join(base, "root"), filepath.Join(base, "outside")
	writeTxtar(t, root, fixture)
	writeTxtar(t, outside, "-- secret.txt --\nsecret\n")
	must(t, os.WriteFile(filepath.Join(root, "image.png"), pngBytes, 0o644))
	must(t, os.WriteFile(filepath.Join(root, "big.txt"), []byte(strings.Repeat("x\n", 1000)), 0o644))
	must(t, os.Symlink("src/main.go", filepath.Join(root, "link-inside")))
	must(t, os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(root, "link-outside")))
	must(t, os.Symlink("nowhere", filepath.Join(root, "dangling")))
	if runtime.GOOS != "windows" {
		must(t, mkfifo(filepath.Join(root, "fifo")))
	}
	return root, outside
}

func writeTxtar(t testing.TB, dir, archive string) {
	t.Helper()
	for _, f := range txtar.Parse([]byte(archive)).Files {
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		must(t, os.MkdirAll(filepath.Dir(p), 0o755))
		must(t, os.WriteFile(p, f.Data, 0o644))
	}
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// testScope opens dirs as operator roots.
func testScope(t testing.TB, dirs ...string) *roots.Scope {
	t.Helper()
	set, err := roots.NewSet(dirs, nil)
	if err != nil {
		t.Fatal(err)
	}
	return set.Scope()
}

// connect serves f on an in-memory transport and returns a client speaking
// version.
func connect(t testing.TB, f *Files, version string) *mcp.ClientSession {
	t.Helper()
	s := mcp.NewServer(&mcp.Implementation{Name: "grove-test", Version: "v0"}, &mcp.ServerOptions{
		CompletionHandler: f.Complete,
	})
	s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "resources/list" {
				res, err := f.ListResources(ctx, req.(*mcp.ListResourcesRequest))
				if err != nil {
					return nil, err
				}
				return res, nil
			}
			return next(ctx, method, req)
		}
	})
	f.Register(s)
	ct, st := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := s.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	c := mcp.NewClient(&mcp.Implementation{Name: "client", Version: "v0"}, nil)
	cs, err := c.Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
	})
	return cs
}

// newFiles returns Files over dirs with a small read limit and page size.
func newFiles(t testing.TB, readOnly bool, dirs ...string) *Files {
	return New(Options{Scope: scope.Static(testScope(t, dirs...)), ReadOnly: readOnly, MaxReadBytes: 1024, PageSize: 3})
}

// wireCode returns the JSON-RPC error code of err, or 0.
func wireCode(err error) int64 {
	var we *jsonrpc.Error
	if errors.As(err, &we) {
		return we.Code
	}
	return 0
}

// callTool calls a tool and decodes its structured result into out; it
// returns the text content and whether the result is an error.
func callTool(t *testing.T, cs *mcp.ClientSession, name string, args, out any) (string, bool) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var text strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			text.WriteString(tc.Text)
		}
	}
	if out != nil && !res.IsError {
		data, err := json.Marshal(res.StructuredContent)
		must(t, err)
		must(t, json.Unmarshal(data, out))
	}
	return text.String(), res.IsError
}

// toolOK calls a tool that must succeed.
func toolOK(t *testing.T, cs *mcp.ClientSession, name string, args, out any) string {
	t.Helper()
	text, isErr := callTool(t, cs, name, args, out)
	if isErr {
		t.Fatalf("%s(%v) failed: %s", name, args, text)
	}
	return text
}

// toolErr calls a tool that must fail and returns the error text.
func toolErr(t *testing.T, cs *mcp.ClientSession, name string, args any) string {
	t.Helper()
	text, isErr := callTool(t, cs, name, args, nil)
	if !isErr {
		t.Fatalf("%s(%v) succeeded, want an error: %s", name, args, text)
	}
	return text
}
