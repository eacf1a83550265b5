package gittools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/grove-mcp/grove/gittools/internal/status"

	"github.com/grove-mcp/grove/gittools/internal/history"

	"github.com/grove-mcp/grove/gittools/internal/diff"

	"github.com/grove-mcp/grove/gittools/internal/gen"
	"github.com/grove-mcp/grove/scope"
)

// benchShape is the generated repository the benchmarks share: 5,000 files in 100 directories,
// 500 commits with a merge every 20th.
var benchShape = gen.Options{Files: 5000, FilesPerDir: 50, Commits: 500, MergeEvery: 20, Lines: 60}

// benchRepo generates the benchmark repository in a temp dir of b (a few seconds, before the timer starts).
func benchRepo(b *testing.B) (string, gen.Info) {
	b.Helper()
	dir := filepath.Join(b.TempDir(), "repo")
	info, err := gen.Repo(dir, benchShape)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	return dir, info
}

// modify10 edits ten tracked files and restores them when the benchmark ends.
func modify10(b *testing.B, dir string, info gen.Info) {
	for i := range 10 {
		p := filepath.Join(dir, filepath.FromSlash(info.Paths[i*97]))
		old, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, append([]byte("edited\n"), old...), 0o644); err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { os.WriteFile(p, old, 0o644) })
	}
}

func BenchmarkStatus(b *testing.B) {
	dir, info := benchRepo(b)
	for _, name := range []string{"clean", "10modified"} {
		b.Run(name, func(b *testing.B) {
			if name == "10modified" {
				modify10(b, dir, info)
			}
			sc := scopeOf(b, dir)
			r := New(Options{Scope: scope.Static(sc)})
			defer r.Close()
			ctx := testCtx(b)
			b.ResetTimer()
			for b.Loop() {
				if _, _, err := r.status(ctx, nil, sc, status.StatusArgs{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkLog50(b *testing.B) {
	dir, _ := benchRepo(b)
	sc := scopeOf(b, dir)
	r := New(Options{Scope: scope.Static(sc)})
	defer r.Close()
	ctx := testCtx(b)
	for b.Loop() {
		if _, out, err := r.logTool(ctx, nil, sc, history.LogArgs{MaxCount: 50}); err != nil || len(out.Commits) != 50 {
			b.Fatal(err, len(out.Commits))
		}
	}
}

func BenchmarkLogPath(b *testing.B) {
	dir, info := benchRepo(b)
	for _, tt := range []struct{ name, path string }{{"hot", info.HotPath}, {"rare", info.RarePath}} {
		b.Run(tt.name, func(b *testing.B) {
			sc := scopeOf(b, dir)
			r := New(Options{Scope: scope.Static(sc)})
			defer r.Close()
			ctx := testCtx(b)
			for b.Loop() {
				if _, out, err := r.logTool(ctx, nil, sc, history.LogArgs{MaxCount: 50, Path: tt.path}); err != nil || len(out.Commits) == 0 {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkDiff(b *testing.B) {
	dir, info := benchRepo(b)
	for _, tt := range []struct {
		name string
		in   diff.DiffArgs
	}{
		{"worktree10", diff.DiffArgs{}},
		{"HEAD~1..HEAD", diff.DiffArgs{Target: "HEAD~1..HEAD"}},
		{"HEAD~100..HEAD", diff.DiffArgs{Target: "HEAD~100..HEAD"}},
	} {
		b.Run(tt.name, func(b *testing.B) {
			if strings.HasPrefix(tt.name, "worktree") {
				modify10(b, dir, info)
			}
			sc := scopeOf(b, dir)
			r := New(Options{Scope: scope.Static(sc)})
			defer r.Close()
			ctx := testCtx(b)
			for b.Loop() {
				if _, out, err := r.diffTool(ctx, nil, sc, tt.in); err != nil || len(out.Files) == 0 {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkShow(b *testing.B) {
	dir, info := benchRepo(b)
	sc := scopeOf(b, dir)
	r := New(Options{Scope: scope.Static(sc)})
	defer r.Close()
	ctx := testCtx(b)
	short := info.Head.String()[:10]
	for b.Loop() {
		if _, out, err := r.showTool(ctx, nil, sc, diff.ShowArgs{Revision: short}); err != nil || len(out.Files) == 0 {
			b.Fatal(err)
		}
	}
}
