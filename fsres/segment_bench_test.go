package fsres

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkListResourcesFlat pages through one directory of 100,000 files:
// the first page walks it, the others come from its segment.
func BenchmarkListResourcesFlat(b *testing.B) {
	const files = 100_000
	dir, err := filepath.EvalSymlinks(b.TempDir())
	must(b, err)
	for i := range files {
		must(b, os.WriteFile(filepath.Join(dir, fmt.Sprintf("file-%07d.txt", i)), nil, 0o644))
	}
	f, _ := benchFiles(b, dir)
	ctx := context.Background()
	pages := 0
	for b.Loop() {
		f.pages = segments{} // every listing starts cold
		cursor, n := "", 0
		for {
			pages++
			res, err := f.ListResources(ctx, &mcp.ListResourcesRequest{Params: &mcp.ListResourcesParams{Cursor: cursor}})
			if err != nil {
				b.Fatal(err)
			}
			n += len(res.Resources)
			if cursor = res.NextCursor; cursor == "" {
				break
			}
		}
		if n != files {
			b.Fatalf("listed %d files, want %d", n, files)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(pages)/1e6, "ms/page")
	b.ReportMetric(vmHWM()/(1<<10), "peak-RSS-MiB")
}
