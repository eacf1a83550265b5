// Package bench_test holds in-process Go benchmarks of grove's server for
// profiling what the stdio drivers in bench/cmd measure end to end:
//
//	go test ./bench -run '^$' -bench ReadFile -cpuprofile /tmp/cpu.prof
//	go tool pprof -top /tmp/cpu.prof
package bench_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/grove-mcp/grove/bench/internal/benchutil"
	"github.com/grove-mcp/grove/roots"
	"github.com/grove-mcp/grove/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// fixtures writes the fsbench fixtures once per benchmark.
func fixtures(b *testing.B) string {
	b.Helper()
	dir, err := filepath.EvalSymlinks(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	root := filepath.Join(dir, "fix")
	if err := benchutil.MakeFixtures(root); err != nil {
		b.Fatal(err)
	}
	return root
}

// BenchmarkServerNew is grove's start-up minus process spawn: roots and
// features. The initial watch walk runs on a goroutine and is cut short by
// Close; BenchmarkWatchSetup measures it.
func BenchmarkServerNew(b *testing.B) {
	root := fixtures(b)
	for b.Loop() {
		s, err := server.New(server.Config{Roots: []string{root}})
		if err != nil {
			b.Fatal(err)
		}
		s.Close()
	}
}

// session connects an in-memory client to a grove server on root, closed
// when the benchmark ends.
func session(b *testing.B, root string) *mcp.ClientSession {
	b.Helper()
	cs, stop := open(b, root)
	b.Cleanup(stop)
	return cs
}

// open connects an in-memory client to a new grove server on root; stop
// closes the client, the server session and the server.
func open(b *testing.B, root string) (*mcp.ClientSession, func()) {
	b.Helper()
	s, err := server.New(server.Config{Roots: []string{root}})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.MCP().Connect(ctx, st, nil)
	if err != nil {
		s.Close()
		b.Fatal(err)
	}
	c := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "0"}, &mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{}})
	cs, err := c.Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: benchutil.Legacy})
	if err != nil {
		ss.Close()
		s.Close()
		b.Fatal(err)
	}
	return cs, func() {
		cs.Close()
		ss.Close()
		s.Close()
	}
}

func benchTool(b *testing.B, tool string, args func(root string) map[string]any) {
	root := fixtures(b)
	cs := session(b, root)
	ctx := context.Background()
	for b.Loop() {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args(root)})
		if _, err := benchutil.Text(res, err); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkReadFile(b *testing.B) {
	benchTool(b, "read_file", func(root string) map[string]any { return map[string]any{"path": root + "/big.txt"} })
}

func BenchmarkListDirectory(b *testing.B) {
	benchTool(b, "list_directory", func(root string) map[string]any { return map[string]any{"path": root + "/list"} })
}

func BenchmarkSearchFiles(b *testing.B) {
	benchTool(b, "search_files", func(root string) map[string]any {
		return map[string]any{"path": root + "/glob", "pattern": "**/*.txt", "max_results": 1_000_000}
	})
}

func BenchmarkDirectoryTree(b *testing.B) {
	benchTool(b, "directory_tree", func(root string) map[string]any {
		return map[string]any{"path": root + "/tree", "max_depth": 100, "max_entries": 1_000_000}
	})
}

// BenchmarkWatchSetup is server.New on a 50,000-file, 5,000-directory tree
// until a subscription is answered, which grove does once the watches are in
// place: the work behind bench/watch.sh's set-up row.
func BenchmarkWatchSetup(b *testing.B) {
	dir, err := filepath.EvalSymlinks(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	if _, _, err := benchutil.MakeWatchTree(dir, 50, 99, 10); err != nil {
		b.Fatal(err)
	}
	uri := roots.URI(filepath.Join(dir, "probe.txt"))
	for b.Loop() {
		cs, stop := open(b, dir)
		err := cs.Subscribe(context.Background(), &mcp.SubscribeParams{URI: uri})
		stop()
		if err != nil {
			b.Fatal(err)
		}
	}
}
