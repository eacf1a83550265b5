package fsres

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/grove-mcp/grove/roots"
	"github.com/grove-mcp/grove/scope"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// benchTree creates files files under dir, spread over directories of per
// files each, grouped per 10 directories; every fourth file is a .go file.
func benchTree(b *testing.B, files, per int) string {
	b.Helper()
	dir, err := filepath.EvalSymlinks(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	must(b, os.WriteFile(filepath.Join(dir, ".gitignore"), []byte("*.o\nbuild/\n"), 0o644))
	content := []byte("package x\n\nfunc f() {}\n")
	for i := range files {
		d := filepath.Join(dir, fmt.Sprintf("g%02d", i/per/10), fmt.Sprintf("d%03d", i/per))
		if i%per == 0 {
			must(b, os.MkdirAll(d, 0o755))
		}
		ext := ".txt"
		if i%4 == 0 {
			ext = ".go"
		}
		must(b, os.WriteFile(filepath.Join(d, "file"+strconv.Itoa(i)+ext), content, 0o644))
	}
	return dir
}

func benchFiles(b *testing.B, dir string) (*Files, *roots.Scope) {
	sc := testScope(b, dir)
	return New(Options{Scope: scope.Static(sc)}), sc
}

func BenchmarkListResources100k(b *testing.B) {
	dir := benchTree(b, 100_000, 100)
	f, _ := benchFiles(b, dir)
	ctx := context.Background()
	var peak uint64
	var ms runtime.MemStats
	pages := 0
	for b.Loop() {
		cursor, n := "", 0
		for {
			pages++
			res, err := f.ListResources(ctx, &mcp.ListResourcesRequest{Params: &mcp.ListResourcesParams{Cursor: cursor}})
			if err != nil {
				b.Fatal(err)
			}
			n += len(res.Resources)
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapAlloc)
			if cursor = res.NextCursor; cursor == "" {
				break
			}
		}
		if n != 100_001 { // and .gitignore
			b.Fatalf("listed %d files, want 100001", n)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(pages)/1e6, "ms/page")
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
	b.ReportMetric(vmHWM()/(1<<10), "peak-RSS-MiB")
}

// reportCPU starts measuring the process's CPU time (user and system, all
// goroutines); the function it returns reports it per op. Wall time on a
// shared machine says little, and parallel code trades CPU for wall time.
func reportCPU(b *testing.B) func() {
	start := cpuTime()
	return func() {
		b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
	}
}

// vmHWM returns the process's peak resident set in KiB (Linux), or 0.
func vmHWM() float64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(data)) {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			return kb
		}
	}
	return 0
}

func BenchmarkSearchFiles20k(b *testing.B) {
	dir := benchTree(b, 20_000, 100)
	f, sc := benchFiles(b, dir)
	ctx := context.Background()
	for b.Loop() {
		_, out, err := f.searchFiles(ctx, nil, sc, SearchArgs{Path: dir, Pattern: "**/*.go", MaxResults: 100_000})
		if err != nil || len(out.Matches) != 5000 {
			b.Fatalf("%d matches, %v", len(out.Matches), err)
		}
	}
}

func BenchmarkDirectoryTree2k(b *testing.B) {
	dir := benchTree(b, 2000, 20)
	f, sc := benchFiles(b, dir)
	ctx := context.Background()
	defer reportCPU(b)()
	for b.Loop() {
		_, out, err := f.directoryTree(ctx, nil, sc, TreeArgs{Path: dir, MaxDepth: 5, MaxEntries: 10_000})
		if err != nil || len(out.Entries) < 2000 {
			b.Fatalf("%d entries, %v", len(out.Entries), err)
		}
	}
}

func BenchmarkListDirectory1k(b *testing.B) {
	dir := benchTree(b, 1000, 1000)
	f, sc := benchFiles(b, dir)
	ctx := context.Background()
	sub := filepath.Join(dir, "g00", "d000")
	defer reportCPU(b)()
	for b.Loop() {
		_, out, err := f.listDirectory(ctx, nil, sc, ListDirArgs{Path: sub})
		if err != nil || len(out.Entries) != 1000 {
			b.Fatalf("%d entries, %v", len(out.Entries), err)
		}
	}
}

// benchFixture writes what bench/internal/benchutil writes for the
// list_directory and directory_tree rows: list/ with 1,000 files, and tree/
// with 40 directories of 49 files (2,000 entries).
func benchFixture(b *testing.B) string {
	b.Helper()
	dir, err := filepath.EvalSymlinks(b.TempDir())
	must(b, err)
	files := map[string]int{"list": 1000}
	for d := range 40 {
		files[filepath.Join("tree", fmt.Sprintf("d%02d", d))] = 49
	}
	for sub, n := range files {
		must(b, os.MkdirAll(filepath.Join(dir, sub), 0o755))
		for i := range n {
			name := fmt.Sprintf("f%04d.txt", i)
			if sub != "list" {
				name = fmt.Sprintf("f%02d.go", i)
			}
			must(b, os.WriteFile(filepath.Join(dir, sub, name), []byte("hello\n"), 0o644))
		}
	}
	return dir
}

func BenchmarkListDirectoryFixture(b *testing.B) {
	dir := benchFixture(b)
	f, sc := benchFiles(b, dir)
	ctx := context.Background()
	defer reportCPU(b)()
	for b.Loop() {
		_, out, err := f.listDirectory(ctx, nil, sc, ListDirArgs{Path: filepath.Join(dir, "list")})
		if err != nil || len(out.Entries) != 1000 {
			b.Fatalf("%d entries, %v", len(out.Entries), err)
		}
	}
}

func BenchmarkDirectoryTreeFixture(b *testing.B) {
	dir := benchFixture(b)
	f, sc := benchFiles(b, dir)
	ctx := context.Background()
	defer reportCPU(b)()
	for b.Loop() {
		_, out, err := f.directoryTree(ctx, nil, sc, TreeArgs{Path: filepath.Join(dir, "tree"), MaxDepth: 100, MaxEntries: 1_000_000})
		if err != nil || len(out.Entries) != 2000 {
			b.Fatalf("%d entries, %v", len(out.Entries), err)
		}
	}
}

func BenchmarkRead1MiB(b *testing.B) {
	dir, err := filepath.EvalSymlinks(b.TempDir())
	must(b, err)
	line := strings.Repeat("abcdefghij", 10) + "\n"
	must(b, os.WriteFile(filepath.Join(dir, "big.go"), []byte(strings.Repeat(line, (1<<20)/len(line))), 0o644))
	f, sc := benchFiles(b, dir)
	req := &mcp.ReadResourceRequest{Params: &mcp.ReadResourceParams{URI: roots.URI(filepath.Join(dir, "big.go"))}}
	b.SetBytes(1 << 20)
	for b.Loop() {
		res, err := f.read(context.Background(), req, sc)
		if err != nil || len(res.Contents[0].Text) < 1<<19 {
			b.Fatal(err)
		}
	}
}
