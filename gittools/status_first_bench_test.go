package gittools

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/grove-mcp/grove/gittools/internal/gen"
	"github.com/grove-mcp/grove/gittools/internal/gittest"
	"github.com/grove-mcp/grove/gittools/internal/status"
	"github.com/grove-mcp/grove/roots"
	"github.com/grove-mcp/grove/scope"
)

// BenchmarkFirstStatus measures the first git_status of a fresh Repos (no watcher, nothing cached: the
// repository opened, the index parsed, the worktree walked), as a fresh server pays it, against the git
// program on the same clean tree:
//
//	go test -run '^$' -bench FirstStatus -benchtime 20x ./gittools/
//	GROVE_BENCH_REPO=~/.cache/grove-gitbench/status50k go test -run '^$' -bench FirstStatus ./gittools/
//
// GROVE_BENCH_REPO names an existing worktree (read only) instead of the generated 5,000-file one.
func BenchmarkFirstStatus(b *testing.B) {
	dir := os.Getenv("GROVE_BENCH_REPO")
	if dir == "" {
		dir = filepath.Join(b.TempDir(), "repo")
		if _, err := gen.Repo(dir, gen.Options{Files: 5000, FilesPerDir: 50, Commits: 3, NoDeltas: true, Lines: 20}); err != nil {
			b.Fatal(err)
		}
	}
	dir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("grove", func(b *testing.B) { benchFirstGrove(b, dir) })
	b.Run("git", func(b *testing.B) { benchGitStatusCPU(b, dir) })
}

func benchFirstGrove(b *testing.B, dir string) {
	set, err := roots.NewSet([]string{dir}, nil)
	if err != nil {
		b.Fatal(err)
	}
	sc := set.Scope()
	ctx := testCtx(b)
	var took, cpu []time.Duration
	for b.Loop() {
		b.StopTimer()
		r := New(Options{Scope: scope.Static(sc)})
		runtime.GC()
		b.StartTimer()
		start, cpu0 := time.Now(), cpuTime()
		out, _, err := r.status(ctx, nil, sc, status.StatusArgs{})
		took, cpu = append(took, time.Since(start)), append(cpu, cpuTime()-cpu0)
		b.StopTimer()
		if err != nil || out.IsError {
			b.Fatalf("status: %v %v", err, out)
		}
		r.Close()
		b.StartTimer()
	}
	reportMedian(b, took)
	reportCPU(b, cpu)
}

// benchGitStatusCPU is benchGitStatus that also reports git's CPU time (user and system) per run.
func benchGitStatusCPU(b *testing.B, dir string) {
	if _, err := exec.LookPath("git"); err != nil {
		b.Skip("no git program")
	}
	home := b.TempDir()
	var took, cpu []time.Duration
	for b.Loop() {
		cmd := exec.Command("git", "status", "--porcelain")
		cmd.Dir, cmd.Env = dir, gittest.Env(home)
		start := time.Now()
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("git status: %v\n%s", err, out)
		}
		took = append(took, time.Since(start))
		cpu = append(cpu, cmd.ProcessState.UserTime()+cmd.ProcessState.SystemTime())
	}
	reportMedian(b, took)
	reportCPU(b, cpu)
}

func reportCPU(b *testing.B, cpu []time.Duration) {
	if len(cpu) == 0 || cpu[len(cpu)-1] == 0 {
		return
	}
	slices.Sort(cpu)
	b.ReportMetric(float64(cpu[len(cpu)/2].Microseconds())/1000, "cpu-ms-median")
}
