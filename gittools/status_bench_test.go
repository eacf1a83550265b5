package gittools

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/grove-mcp/grove/gittools/internal/gen"
	"github.com/grove-mcp/grove/gittools/internal/gittest"
	"github.com/grove-mcp/grove/gittools/internal/status"
)

// BenchmarkWarmStatus measures git_status kept warm by the watcher against the git program on the same
// clean and lightly dirty (10 modified files) trees of 5,000 and 50,000 files, and reports the median of
// the calls besides the mean:
//
//	go test -run '^$' -bench WarmStatus -benchtime 20x ./gittools/
//
// GROVE_BENCH_FILES=5000 limits it to one size.
func BenchmarkWarmStatus(b *testing.B) {
	sizes := []int{5000, 50000}
	if n, err := strconv.Atoi(os.Getenv("GROVE_BENCH_FILES")); err == nil && n > 0 {
		sizes = []int{n}
	}
	for _, files := range sizes {
		dir := filepath.Join(b.TempDir(), "repo")
		info, err := gen.Repo(dir, gen.Options{Files: files, FilesPerDir: 50, Commits: 3, NoDeltas: true, Lines: 20})
		if err != nil {
			b.Fatal(err)
		}
		for _, dirty := range []bool{false, true} {
			name := fmt.Sprintf("files=%d/clean", files)
			if dirty {
				name = fmt.Sprintf("files=%d/10modified", files)
				modify10(b, dir, info)
			}
			b.Run(name+"/grove", func(b *testing.B) { benchWarmGrove(b, dir, false) })
			if !dirty {
				// As when git runs between grove's calls and rewrites the index each time.
				b.Run(name+"/grove-index-rewritten", func(b *testing.B) { benchWarmGrove(b, dir, true) })
			}
			b.Run(name+"/git", func(b *testing.B) { benchGitStatus(b, dir) })
		}
	}
}

func benchWarmGrove(b *testing.B, dir string, rewriteIndex bool) {
	f := &fixture{t: b, dir: dir}
	r, sc := watchFixture(b, f)
	ctx := testCtx(b)
	if _, _, err := r.status(ctx, nil, sc, status.StatusArgs{}); err != nil { // the full scan
		b.Fatal(err)
	}
	var took []time.Duration
	b.ResetTimer()
	index := filepath.Join(dir, ".git", "index")
	for b.Loop() {
		if rewriteIndex {
			b.StopTimer()
			rewrite(b, index)
			b.StartTimer()
		}
		start := time.Now()
		if _, _, err := r.status(ctx, nil, sc, status.StatusArgs{}); err != nil {
			b.Fatal(err)
		}
		took = append(took, time.Since(start))
	}
	b.StopTimer()
	if warmOf(b, r).Full() {
		b.Error("the last status was a full scan")
	}
	reportMedian(b, took)
}

func benchGitStatus(b *testing.B, dir string) {
	if _, err := exec.LookPath("git"); err != nil {
		b.Skip("no git program")
	}
	home := b.TempDir()
	var took []time.Duration
	for b.Loop() {
		cmd := exec.Command("git", "status", "--porcelain")
		cmd.Dir, cmd.Env = dir, gittest.Env(home)
		start := time.Now()
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("git status: %v\n%s", err, out)
		}
		took = append(took, time.Since(start))
	}
	reportMedian(b, took)
}

func reportMedian(b *testing.B, took []time.Duration) {
	if len(took) == 0 {
		return
	}
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "ms-median")
}

// rewrite replaces a file with a copy of itself, as git replaces its index (a new inode and time).
func rewrite(b *testing.B, name string) {
	data, err := os.ReadFile(name)
	if err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(name+".tmp", data, 0o644); err != nil {
		b.Fatal(err)
	}
	if err := os.Rename(name+".tmp", name); err != nil {
		b.Fatal(err)
	}
}
