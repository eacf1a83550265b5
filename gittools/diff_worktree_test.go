package gittools

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/grove-mcp/grove/gittools/internal/diff"

	"github.com/grove-mcp/grove/gittools/internal/scan"

	"github.com/google/go-cmp/cmp"
)

// TestDiffWorktreeEdgesMatchGit covers what the index-driven worktree scan must get right without walking
// the tree: files in ignored or deep directories, a directory replaced by a symlink, a file replaced by a
// directory, untracked files (not part of git diff) and a file touched but unchanged.
func TestDiffWorktreeEdgesMatchGit(t *testing.T) {
	f := newFixture(t)
	f.write(".gitignore", "build/\n", "build/keep.txt", "k\n", "deep/a/b/c.txt", "c\n", "dir/x.txt", "x\n",
		"file.txt", "f\n", "same.txt", "s\n", "top.txt", "t\n")
	f.git("add", "-f", "build/keep.txt")
	f.commit("initial")
	f.write("build/keep.txt", "k2\n", "deep/a/b/c.txt", "c2\n", "untracked.txt", "u\n", "deep/new.txt", "n\n")
	os.RemoveAll(filepath.Join(f.dir, "dir"))
	os.Mkdir(filepath.Join(f.dir, "elsewhere"), 0o755)
	os.WriteFile(filepath.Join(f.dir, "elsewhere", "x.txt"), []byte("y\n"), 0o644)
	os.Symlink("elsewhere", filepath.Join(f.dir, "dir"))
	os.Remove(filepath.Join(f.dir, "file.txt"))
	os.Mkdir(filepath.Join(f.dir, "file.txt"), 0o755)
	now := time.Now().Add(time.Minute)
	os.Chtimes(filepath.Join(f.dir, "same.txt"), now, now)
	t.Run("sequential", func(t *testing.T) { checkWorktreeDiff(t, f) })
	defer func(n int) { scan.MinParallelScan = n }(scan.MinParallelScan)
	scan.MinParallelScan = 1
	t.Run("parallel", func(t *testing.T) { checkWorktreeDiff(t, f) })
}

func checkWorktreeDiff(t *testing.T, f *fixture) {
	r, sc := f.repos()
	for _, tt := range []struct {
		name string
		in   diff.DiffArgs
		git  []string
	}{
		{"all", diff.DiffArgs{}, nil},
		{"ignored dir", diff.DiffArgs{Path: "build"}, []string{"--", "build"}},
		{"symlinked dir", diff.DiffArgs{Path: "dir"}, []string{"--", "dir"}},
		{"deep", diff.DiffArgs{Path: "deep/a"}, []string{"--", "deep/a"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res, _, err := r.diffTool(testCtx(t), nil, sc, tt.in)
			if err != nil {
				t.Fatal(err)
			}
			want := f.git(append([]string{"diff", "--no-renames", "--no-color", "--no-ext-diff"}, tt.git...)...)
			if diff := cmp.Diff(want, resultText(res)); diff != "" {
				t.Errorf("diff mismatch (-git +grove):\n%s", diff)
			}
		})
	}
}
