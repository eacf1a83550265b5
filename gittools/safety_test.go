package gittools

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/grove-mcp/grove/gittools/internal/status"

	"github.com/grove-mcp/grove/gittools/internal/history"

	"github.com/grove-mcp/grove/gittools/internal/blame"

	"github.com/grove-mcp/grove/gittools/internal/diff"

	"github.com/grove-mcp/grove/gittools/internal/gitfmt"

	"github.com/grove-mcp/grove/gittools/internal/repo"
	"github.com/grove-mcp/grove/roots"
	"github.com/grove-mcp/grove/scope"
)

func TestRefusesRepositoriesOutsideTheRoots(t *testing.T) {
	for _, tt := range []struct {
		name  string
		setup func(f *fixture, outside string) (root, repoPath string)
	}{
		{"root below the repository", func(f *fixture, _ string) (string, string) {
			sub := filepath.Join(f.dir, "sub")
			os.MkdirAll(sub, 0o755)
			return sub, sub
		}},
		{"gitdir file pointing outside", func(f *fixture, outside string) (string, string) {
			os.Rename(filepath.Join(f.dir, ".git"), filepath.Join(outside, "real.git"))
			os.WriteFile(filepath.Join(f.dir, ".git"), []byte("gitdir: "+filepath.Join(outside, "real.git")+"\n"), 0o644)
			return f.dir, f.dir
		}},
		{".git symlink pointing outside", func(f *fixture, outside string) (string, string) {
			os.Rename(filepath.Join(f.dir, ".git"), filepath.Join(outside, "real.git"))
			os.Symlink(filepath.Join(outside, "real.git"), filepath.Join(f.dir, ".git"))
			return f.dir, f.dir
		}},
		{"alternates outside", func(f *fixture, outside string) (string, string) {
			os.MkdirAll(filepath.Join(outside, "objects"), 0o755)
			os.WriteFile(filepath.Join(f.dir, ".git", "objects", "info", "alternates"), []byte(filepath.Join(outside, "objects")+"\n"), 0o644)
			return f.dir, f.dir
		}},
		{"relative alternates escaping", func(f *fixture, outside string) (string, string) {
			os.MkdirAll(filepath.Join(outside, "objects"), 0o755)
			rel, _ := filepath.Rel(filepath.Join(f.dir, ".git", "objects"), filepath.Join(outside, "objects"))
			os.WriteFile(filepath.Join(f.dir, ".git", "objects", "info", "alternates"), []byte(rel+"\n"), 0o644)
			return f.dir, f.dir
		}},
		{"core.worktree elsewhere", func(f *fixture, outside string) (string, string) {
			f.git("config", "core.worktree", outside)
			return f.dir, f.dir
		}},
		{"commondir outside", func(f *fixture, outside string) (string, string) {
			os.WriteFile(filepath.Join(f.dir, ".git", "commondir"), []byte(outside+"\n"), 0o644)
			return f.dir, f.dir
		}},
		{"objects symlinked outside", func(f *fixture, outside string) (string, string) {
			os.Rename(filepath.Join(f.dir, ".git", "objects"), filepath.Join(outside, "objects"))
			os.Symlink(filepath.Join(outside, "objects"), filepath.Join(f.dir, ".git", "objects"))
			return f.dir, f.dir
		}},
		{"config symlinked outside", func(f *fixture, outside string) (string, string) {
			os.Rename(filepath.Join(f.dir, ".git", "config"), filepath.Join(outside, "config"))
			os.Symlink(filepath.Join(outside, "config"), filepath.Join(f.dir, ".git", "config"))
			return f.dir, f.dir
		}},
		{"repo_path outside", func(f *fixture, outside string) (string, string) {
			return f.dir, outside
		}},
		{"repo_path with dot-dot", func(f *fixture, _ string) (string, string) {
			return f.dir, f.dir + "/../repo/../.."
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			f.write("a.txt", "a\n")
			f.commit("initial")
			outside := filepath.Join(filepath.Dir(f.dir), "outside")
			os.MkdirAll(outside, 0o755)
			root, repoPath := tt.setup(f, outside)
			sc := scopeOf(t, root)
			r := New(Options{Scope: scope.Static(sc)})
			defer r.Close()
			_, _, err := r.status(testCtx(t), nil, sc, status.StatusArgs{RepoPath: repoPath})
			if err == nil {
				t.Fatal("status succeeded, want refusal")
			}
			if oe := (*repo.OutsideRootsError)(nil); errors.As(err, &oe) {
				checkOutsideRootsError(t, f, err, outside)
				return
			}
			if !errors.Is(err, fs.ErrNotExist) || strings.Contains(err.Error(), outside) && !strings.Contains(repoPath, outside) {
				t.Errorf("err = %v, want a not-found error naming only the input", err)
			}
			_, _, missing := r.status(testCtx(t), nil, sc, status.StatusArgs{RepoPath: repoPath + "/no-such-dir"})
			if got, want := err.Error(), strings.Replace(missing.Error(), repoPath+"/no-such-dir", repoPath, 1); got != want {
				t.Errorf("refusal reads %q, a missing path %q: they must not differ", got, want)
			}
		})
	}
}

// checkOutsideRootsError: a .git file or commondir naming a directory outside every root is refused with what
// to do (add a root), and with no more than the .git file says: the commondir's target is not named.
func checkOutsideRootsError(t *testing.T, f *fixture, err error, outside string) {
	t.Helper()
	msg := err.Error()
	if !strings.Contains(msg, "outside every root") || !strings.Contains(msg, "--root") || strings.Contains(msg, "no such file") {
		t.Errorf("err = %v, want it to say the git dir is outside every root and how to add one", err)
	}
	gitFile, _ := os.ReadFile(filepath.Join(f.dir, ".git"))
	if strings.Contains(msg, outside) && !strings.Contains(string(gitFile), outside) {
		t.Errorf("err = %v names %s, which the .git file does not", err, outside)
	}
}

func TestIndexSymlinkedOutsideIsNotRead(t *testing.T) {
	f := newFixture(t)
	f.write("a.txt", "a\n")
	f.commit("initial")
	outside := filepath.Join(filepath.Dir(f.dir), "outside")
	os.MkdirAll(outside, 0o755)
	os.Rename(filepath.Join(f.dir, ".git", "index"), filepath.Join(outside, "index"))
	os.Symlink(filepath.Join(outside, "index"), filepath.Join(f.dir, ".git", "index"))
	r, sc := f.repos()
	_, _, err := r.status(testCtx(t), nil, sc, status.StatusArgs{})
	if err == nil || strings.Contains(err.Error(), outside) {
		t.Errorf("status with an index symlinked outside: err = %v, want a refusal not naming the target", err)
	}
}

func TestRefusesOptionLikeAndInvalidRevisions(t *testing.T) {
	f := historyFixture(t)
	r, sc := f.repos()
	marker := filepath.Join(t.TempDir(), "x")
	for _, rev := range []string{"--output=" + marker, "-p", "HEAD\x00", "HEAD with space", "HEAD\n", "a\\b", "no-such-branch", "HEAD~999"} {
		t.Run(rev, func(t *testing.T) {
			ctx := testCtx(t)
			if _, _, err := r.logTool(ctx, nil, sc, history.LogArgs{Revision: rev}); err == nil {
				t.Error("git_log accepted it")
			}
			if _, _, err := r.diffTool(ctx, nil, sc, diff.DiffArgs{Target: rev}); err == nil {
				t.Error("git_diff accepted it")
			}
			if _, _, err := r.showTool(ctx, nil, sc, diff.ShowArgs{Revision: rev}); err == nil {
				t.Error("git_show accepted it")
			}
			if _, _, err := r.blameTool(ctx, nil, sc, blame.BlameArgs{Path: "README", Revision: rev}); err == nil {
				t.Error("git_blame accepted it")
			}
		})
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("an option-like revision created a file")
	}
}

func TestRefusesPathEscapes(t *testing.T) {
	f := historyFixture(t)
	r, sc := f.repos()
	for _, p := range []string{"../x", "src/../../x", "/etc/passwd", "file:///etc/passwd", ".git/config", ".git", "a\x00b"} {
		t.Run(p, func(t *testing.T) {
			ctx := testCtx(t)
			_, _, err := r.logTool(ctx, nil, sc, history.LogArgs{Path: p})
			if err == nil || !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("git_log path: err = %v, want not found", err)
			}
			if _, _, err := r.diffTool(ctx, nil, sc, diff.DiffArgs{Path: p}); err == nil {
				t.Error("git_diff accepted it")
			}
			if _, _, err := r.showTool(ctx, nil, sc, diff.ShowArgs{Revision: "HEAD", Path: p}); err == nil {
				t.Error("git_show accepted it")
			}
			if _, _, err := r.blameTool(ctx, nil, sc, blame.BlameArgs{Path: p}); err == nil {
				t.Error("git_blame accepted it")
			}
		})
	}
}

func TestSymlinkedDirectoryIsNotFollowed(t *testing.T) {
	f := newFixture(t)
	f.write("dir/file.txt", "inside\n")
	f.commit("initial")
	outside := filepath.Join(filepath.Dir(f.dir), "outside")
	os.MkdirAll(outside, 0o755)
	os.WriteFile(filepath.Join(outside, "file.txt"), []byte("SECRET\n"), 0o644)
	os.RemoveAll(filepath.Join(f.dir, "dir"))
	os.Symlink(outside, filepath.Join(f.dir, "dir"))
	r, sc := f.repos()
	for _, p := range []string{"", "dir", "dir/file.txt"} {
		res, _, err := r.diffTool(testCtx(t), nil, sc, diff.DiffArgs{Path: p})
		if err != nil {
			t.Fatal(err)
		}
		if text := resultText(res); strings.Contains(text, "SECRET") || !strings.Contains(text, "deleted file mode") {
			t.Errorf("diff (path %q) through a symlinked dir:\n%s", p, text)
		}
	}
	if diff := gitStatus(f); strings.Join(diff, "\n") != strings.Join(statusLines(t, f), "\n") {
		t.Errorf("status differs from git: git %q grove %q", diff, statusLines(t, f))
	}
}

func TestValidRefName(t *testing.T) {
	for _, tt := range []struct {
		name string
		ok   bool
	}{
		{"main", true}, {"feature/x-1", true}, {"refs/heads/v1.2", true}, {"a.b", true},
		{"", false}, {"-x", false}, {"HEAD", false}, {"@", false}, {"a..b", false}, {"a b", false},
		{"a~1", false}, {"a^", false}, {"a:b", false}, {"a?", false}, {"a*", false}, {"a[b", false},
		{"a\\b", false}, {"/a", false}, {"a/", false}, {"a//b", false}, {"a.", false}, {".a", false},
		{"a/.b", false}, {"a.lock", false}, {"a/b.lock/c", false}, {"a@{1}", false}, {"a\x7f", false}, {"a\tb", false},
	} {
		if err := gitfmt.ValidRefName(tt.name); (err == nil) != tt.ok {
			t.Errorf("validRefName(%q) = %v, want ok=%v", tt.name, err, tt.ok)
		}
	}
}

func TestRepoPathRequiredWithSeveralRoots(t *testing.T) {
	f := newFixture(t)
	f.write("a.txt", "a\n")
	f.commit("initial")
	other := t.TempDir()
	sc := scopeOf(t, f.dir, other)
	r := New(Options{Scope: scope.Static(sc)})
	defer r.Close()
	_, _, err := r.status(testCtx(t), nil, sc, status.StatusArgs{})
	for _, want := range []string{"repo_path is needed: grove has 2 roots", roots.URI(f.dir), roots.URI(other)} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("err = %v, want it to say %q", err, want)
		}
	}
	if _, _, err := r.status(testCtx(t), nil, sc, status.StatusArgs{RepoPath: roots.URI(f.dir)}); err != nil {
		t.Errorf("with a file:// repo_path: %v", err)
	}
}
