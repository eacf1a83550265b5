package gittools

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/grove-mcp/grove/gittools/internal/status"

	"github.com/grove-mcp/grove/gittools/internal/history"

	"github.com/grove-mcp/grove/gittools/internal/blame"

	"github.com/grove-mcp/grove/gittools/internal/diff"

	"github.com/grove-mcp/grove/gittools/internal/gen"
	"github.com/grove-mcp/grove/scope"
)

// TestCompareWithGitCLI times grove's tools and the git CLI alternately on one generated repository, so
// both see the same machine load, and logs the medians. It measures; it asserts only that both succeed.
// Run with GROVE_COMPARE=1 go test -run TestCompareWithGitCLI -v ./gittools/
func TestCompareWithGitCLI(t *testing.T) {
	if os.Getenv("GROVE_COMPARE") == "" {
		t.Skip("set GROVE_COMPARE=1 to run the timing comparison")
	}
	dir := filepath.Join(t.TempDir(), "repo")
	info, err := gen.Repo(dir, benchShape)
	if err != nil {
		t.Fatal(err)
	}
	sc := scopeOf(t, dir)
	r := New(Options{Scope: scope.Static(sc)})
	defer r.Close()
	ctx := testCtx(t)
	home := t.TempDir()
	short := info.Head.String()[:10]
	for _, c := range []struct {
		name  string
		grove func() error
		git   []string
	}{
		{"status", func() error { _, _, err := r.status(ctx, nil, sc, status.StatusArgs{}); return err }, []string{"status", "--porcelain"}},
		{"log 50", func() error { _, _, err := r.logTool(ctx, nil, sc, history.LogArgs{MaxCount: 50}); return err }, []string{"log", "-50", "--format=%h %ad %an: %s", "--date=short"}},
		{"log 50 hot path", func() error {
			_, _, err := r.logTool(ctx, nil, sc, history.LogArgs{MaxCount: 50, Path: info.HotPath})
			return err
		}, []string{"log", "-50", "--format=%h %ad %an: %s", "--date=short", "--", info.HotPath}},
		{"log rare path", func() error {
			_, _, err := r.logTool(ctx, nil, sc, history.LogArgs{MaxCount: 50, Path: info.RarePath})
			return err
		}, []string{"log", "-50", "--format=%h %ad %an: %s", "--date=short", "--", info.RarePath}},
		{"diff HEAD~1..HEAD", func() error { _, _, err := r.diffTool(ctx, nil, sc, diff.DiffArgs{Target: "HEAD~1..HEAD"}); return err }, []string{"diff", "HEAD~1", "HEAD"}},
		{"diff HEAD~100..HEAD", func() error {
			_, _, err := r.diffTool(ctx, nil, sc, diff.DiffArgs{Target: "HEAD~100..HEAD"})
			return err
		}, []string{"diff", "HEAD~100", "HEAD"}},
		{"show short hash", func() error { _, _, err := r.showTool(ctx, nil, sc, diff.ShowArgs{Revision: short}); return err }, []string{"show", short}},
		{"blame hot path", func() error {
			_, _, err := r.blameTool(ctx, nil, sc, blame.BlameArgs{Path: info.HotPath})
			return err
		}, []string{"blame", "--porcelain", info.HotPath}},
	} {
		var ours, theirs []time.Duration
		for range 9 {
			t0 := time.Now()
			if err := c.grove(); err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			ours = append(ours, time.Since(t0))
			cmd := exec.Command("git", c.git...)
			cmd.Dir, cmd.Env = dir, gitEnv(home)
			t0 = time.Now()
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("git %v: %v\n%s", c.git, err, out)
			}
			theirs = append(theirs, time.Since(t0))
		}
		slices.Sort(ours)
		slices.Sort(theirs)
		t.Logf("%-22s grove %8.2f ms   git %8.2f ms   ratio %.2f (slowest grove call %.2f ms)", c.name,
			ms(ours[4]), ms(theirs[4]), ms(ours[4])/ms(theirs[4]), ms(ours[len(ours)-1]))
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
