package gittools

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/grove-mcp/grove/gittools/internal/status"

	"github.com/grove-mcp/grove/gittools/internal/patchtext"

	"github.com/google/go-cmp/cmp"
)

// statusLines runs git_status and returns its entries as porcelain lines.
func statusLines(t *testing.T, f *fixture) []string {
	t.Helper()
	r, sc := f.repos()
	_, out, err := r.status(testCtx(t), nil, sc, status.StatusArgs{})
	if err != nil {
		t.Fatal(err)
	}
	lines := []string{}
	for _, e := range out.Entries {
		lines = append(lines, e.Index+e.Worktree+" "+patchtext.QuotePath(e.Path))
	}
	sort.Strings(lines)
	return lines
}

// gitStatus is the oracle: `git status --porcelain` without rename detection.
func gitStatus(f *fixture) []string {
	lines := []string{}
	for _, l := range strings.Split(f.git("-c", "status.renames=false", "status", "--porcelain", "--untracked-files=normal"), "\n") {
		if l != "" {
			lines = append(lines, l)
		}
	}
	sort.Strings(lines)
	return lines
}

func TestStatusMatchesGit(t *testing.T) {
	for _, tt := range []struct {
		name  string
		setup func(f *fixture)
	}{
		{"clean", func(f *fixture) {}},
		{"modified", func(f *fixture) { f.write("a.txt", "changed\n") }},
		{"staged", func(f *fixture) { f.write("a.txt", "staged\n"); f.git("add", "a.txt") }},
		{"staged and modified", func(f *fixture) {
			f.write("a.txt", "staged\n")
			f.git("add", "a.txt")
			f.write("a.txt", "again\n")
		}},
		{"deleted", func(f *fixture) { os.Remove(filepath.Join(f.dir, "dir", "b.txt")) }},
		{"staged delete", func(f *fixture) { f.git("rm", "-q", "dir/b.txt") }},
		{"intent to add a committed file", func(f *fixture) {
			f.git("rm", "-q", "--cached", "a.txt")
			f.git("add", "-N", "a.txt")
		}},
		{"new staged file", func(f *fixture) { f.write("new.txt", "n\n"); f.git("add", "new.txt") }},
		{"untracked file and dir", func(f *fixture) {
			f.write("u.txt", "u\n", "udir/x/y.txt", "y\n", "dir/u2.txt", "u\n")
		}},
		{"ignored by gitignore", func(f *fixture) {
			f.write(".gitignore", "*.o\nbuild/\n", "x.o", "o", "build/out", "o", "keep.c", "c")
		}},
		{"ignored by info/exclude", func(f *fixture) {
			f.write(".git/info/exclude", "node_modules/\nsecret.txt\n", "node_modules/m/i.js", "x", "secret.txt", "s")
		}},
		{"untracked dir wholly ignored", func(f *fixture) {
			f.write(".gitignore", "*.log\n", "logs/a.log", "l", "logs/deep/b.log", "l")
		}},
		{"empty untracked dir", func(f *fixture) { os.MkdirAll(filepath.Join(f.dir, "empty", "deeper"), 0o755) }},
		{"modified in a one-letter directory", func(f *fixture) { f.write("t/a.txt", "changed\n") }},
		{"file replaced by a directory", func(f *fixture) {
			os.Remove(filepath.Join(f.dir, "a.txt"))
			f.write("a.txt/inner.txt", "i\n", "a.txt/sub/x.txt", "x\n")
		}},
		{"mode change", func(f *fixture) { os.Chmod(filepath.Join(f.dir, "a.txt"), 0o755) }},
		{"file becomes symlink", func(f *fixture) {
			os.Remove(filepath.Join(f.dir, "a.txt"))
			os.Symlink("dir/b.txt", filepath.Join(f.dir, "a.txt"))
		}},
		{"touched but same content", func(f *fixture) {
			now := time.Now().Add(time.Hour)
			os.Chtimes(filepath.Join(f.dir, "a.txt"), now, now)
		}},
		{"racy same size", func(f *fixture) {
			// same size, rewritten in the same second as the index: only hashing can tell
			f.write("a.txt", "AAAAAA\n")
			f.git("add", "a.txt")
			f.write("a.txt", "BBBBBB\n")
		}},
		{"conflict", func(f *fixture) {
			f.git("checkout", "-q", "-b", "side")
			f.write("a.txt", "side\n")
			f.commit("side")
			f.git("checkout", "-q", "main")
			f.write("a.txt", "main\n")
			f.commit("main change")
			mergeIgnoringFailure(f, "merge", "-q", "side")
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			f.write("a.txt", "aaaaaa\n", "dir/b.txt", "b\n", "dir/sub/c.txt", "c\n", "t/a.txt", "t\n")
			f.commit("initial")
			tt.setup(f)
			want := gitStatus(f)
			if diff := cmp.Diff(want, statusLines(t, f)); diff != "" {
				t.Errorf("status mismatch (-git +grove):\n%s", diff)
			}
		})
	}
}

// mergeIgnoringFailure runs a merge that is expected to stop with conflicts.
func mergeIgnoringFailure(f *fixture, args ...string) {
	cmd := gitCmd(f, args...)
	_ = cmd.Run()
}

func TestStatusStagedRenameMatchesGit(t *testing.T) {
	f := newFixture(t)
	f.write("a.txt", "same content\n", "b.txt", "other\n", "c.txt", "dup\n", "d.txt", "dup\n")
	f.commit("initial")
	f.write("moved/keep", "k\n")
	f.git("mv", "a.txt", "moved/a.txt")
	f.git("mv", "c.txt", "c2.txt")
	f.git("rm", "-q", "b.txt")
	f.write("moved/a.txt", "edited after the move\n")
	r, sc := f.repos()
	res, _, err := r.status(testCtx(t), nil, sc, status.StatusArgs{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(f.git("status", "--short", "--branch"), resultText(res)); diff != "" {
		t.Errorf("status with renames (-git +grove):\n%s", diff)
	}
}

func TestStatusFIFODoesNotHang(t *testing.T) {
	f := newFixture(t)
	f.write("a.txt", "a\n")
	f.commit("initial")
	if err := mkfifo(filepath.Join(f.dir, "pipe")); err != nil {
		t.Skip("mkfifo:", err)
	}
	// a tracked file replaced by a FIFO must not be opened either
	os.Remove(filepath.Join(f.dir, "a.txt"))
	if err := mkfifo(filepath.Join(f.dir, "a.txt")); err != nil {
		t.Fatal(err)
	}
	done := make(chan []string, 1)
	go func() { done <- statusLines(t, f) }()
	select {
	case got := <-done:
		if diff := cmp.Diff([]string{" T a.txt"}, got); diff != "" {
			t.Errorf("status mismatch (-want +got):\n%s", diff)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("status blocked on a FIFO")
	}
}

func TestStatusUnbornAndBranch(t *testing.T) {
	f := newFixture(t)
	f.write("a.txt", "a\n")
	f.git("add", "a.txt")
	r, sc := f.repos()
	res, out, err := r.status(testCtx(t), nil, sc, status.StatusArgs{})
	if err != nil {
		t.Fatal(err)
	}
	if !out.Unborn || out.Branch != "main" {
		t.Errorf("got branch %q unborn=%v, want main unborn", out.Branch, out.Unborn)
	}
	if got := resultText(res); !strings.HasPrefix(got, "## No commits yet on main\nA  a.txt\n") {
		t.Errorf("text = %q", got)
	}
}

func TestStatusBranchHeaderMatchesGit(t *testing.T) {
	f := historyFixture(t)
	f.git("branch", "--set-upstream-to=side")
	f.git("checkout", "-q", "-b", "topic", "feature")
	f.git("branch", "--set-upstream-to=main")
	f.write("t.txt", "t\n")
	f.commit("topic work")
	r, sc := f.repos()
	for _, branch := range []string{"topic", "main"} {
		f.git("checkout", "-q", branch)
		res, _, err := r.status(testCtx(t), nil, sc, status.StatusArgs{})
		if err != nil {
			t.Fatal(err)
		}
		want, _, _ := strings.Cut(f.git("status", "--short", "--branch"), "\n")
		if got, _, _ := strings.Cut(resultText(res), "\n"); got != want {
			t.Errorf("branch header = %q, want %q", got, want)
		}
	}
}

func TestStatusIndexV4(t *testing.T) {
	f := newFixture(t)
	f.write("a.txt", "a\n", "dir/b.txt", "b\n", "dir/c.txt", "c\n")
	f.commit("initial")
	f.git("update-index", "--index-version", "4")
	f.write("dir/b.txt", "changed\n", "new.txt", "n\n")
	f.git("add", "new.txt")
	if diff := cmp.Diff(gitStatus(f), statusLines(t, f)); diff != "" {
		t.Errorf("status with index v4 (-git +grove):\n%s", diff)
	}
}
