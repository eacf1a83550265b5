package fsres

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/grove-mcp/grove/scope"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkGrepCold greps a tree with a new Files each time (no cached
// ignore matcher, no index), as a fresh grove's first call does. The tree
// is GROVE_GREP_TREE (e.g. /work/repos/git) or, without it, a generated one;
// GROVE_GREP_PATTERN overrides the pattern.
//
//	GROVE_GREP_TREE=/work/repos/git go test ./fsres -run '^$' -bench GrepCold -cpuprofile /tmp/grep.prof
func BenchmarkGrepCold(b *testing.B) {
	dir := os.Getenv("GROVE_GREP_TREE")
	if dir == "" {
		dir = benchTree(b, 20_000, 100)
	}
	pattern := os.Getenv("GROVE_GREP_PATTERN")
	if pattern == "" {
		pattern = "zqxj_never_there"
	}
	sc := testScope(b, dir)
	ctx := context.Background()
	cpu0 := cpuTime()
	for b.Loop() {
		f := New(Options{Scope: scope.Static(sc)})
		_, out, err := f.grep(ctx, nil, sc, GrepArgs{Pattern: pattern, MaxResults: 10_000_000})
		if err != nil || out.Files == 0 {
			b.Fatalf("%d files searched, %v", out.Files, err)
		}
	}
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
}

// BenchmarkGrepWarm greps with the trigram index ready, fed by a real
// watcher; GROVE_GREP_TREE and GROVE_GREP_PATTERN as for BenchmarkGrepCold.
func BenchmarkGrepWarm(b *testing.B) {
	dir := os.Getenv("GROVE_GREP_TREE")
	if dir == "" {
		dir = benchTree(b, 20_000, 100)
	}
	pattern := os.Getenv("GROVE_GREP_PATTERN")
	if pattern == "" {
		pattern = "zqxj_never_there"
	}
	sc := testScope(b, dir)
	f := indexedFiles(b, dir, 0)
	ctx := context.Background()
	if _, _, err := f.grep(ctx, nil, sc, GrepArgs{Pattern: "grepbench_warm_up_token"}); err != nil {
		b.Fatal(err)
	}
	wait, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	if !f.WaitGrepIndex(wait, dir) {
		b.Fatalf("no index: %+v", f.GrepIndexes())
	}
	for b.Loop() {
		_, out, err := f.grep(ctx, nil, sc, GrepArgs{Pattern: pattern, MaxResults: 10_000_000})
		if err != nil || out.Files == 0 {
			b.Fatalf("%d files searched, %v", out.Files, err)
		}
	}
}

// BenchmarkGrepCall is BenchmarkGrepCold through an MCP client over
// in-memory transports, so that it counts the answer's encoding too.
func BenchmarkGrepCall(b *testing.B) {
	dir := os.Getenv("GROVE_GREP_TREE")
	if dir == "" {
		dir = benchTree(b, 20_000, 100)
	}
	pattern := os.Getenv("GROVE_GREP_PATTERN")
	if pattern == "" {
		pattern = "zqxj_never_there"
	}
	f := New(Options{Scope: scope.Static(testScope(b, dir))})
	cs := connect(b, f, "2025-06-18")
	ctx := context.Background()
	for b.Loop() {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "grep", Arguments: map[string]any{"pattern": pattern, "max_results": 10_000_000}})
		if err != nil || res.IsError {
			b.Fatalf("grep: %v %v", err, res)
		}
	}
}
