package gittools

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/grove-mcp/grove/gittools/internal/blame"
	"github.com/grove-mcp/grove/gittools/internal/diff"
	"github.com/grove-mcp/grove/gittools/internal/history"
	"github.com/grove-mcp/grove/gittools/internal/repo"
	"github.com/grove-mcp/grove/gittools/internal/status"
	"github.com/grove-mcp/grove/gittools/internal/writecmd"
	"github.com/grove-mcp/grove/roots"
	"github.com/grove-mcp/grove/scope"
)

// TestBareMatchesGit: a bare repository, as a root or inside one, answers git_log, git_show, git_diff between
// revisions and git_blame as git does, and the tools that need a worktree say it has none.
func TestBareMatchesGit(t *testing.T) {
	for _, tt := range []struct {
		name  string
		setup func(t *testing.T, f *fixture) (sc *roots.Scope, repoPath, dir string)
	}{
		{"bare clone as the root", func(t *testing.T, f *fixture) (*roots.Scope, string, string) {
			dir := filepath.Join(filepath.Dir(f.dir), "bare.git")
			f.gitIn(filepath.Dir(f.dir), "clone", "-q", "--bare", f.dir, dir)
			return scopeOf(t, dir), "", dir
		}},
		{"bare repository inside a root, pushed to", func(t *testing.T, f *fixture) (*roots.Scope, string, string) {
			top := filepath.Join(filepath.Dir(f.dir), "server")
			dir := filepath.Join(top, "project.git")
			f.gitIn(filepath.Dir(f.dir), "init", "-q", "--bare", dir)
			f.git("push", "-q", dir, "HEAD:refs/heads/main")
			f.gitIn(dir, "symbolic-ref", "HEAD", "refs/heads/main")
			return scopeOf(t, top), roots.URI(dir), dir
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := layoutBase(t)
			sc, repoPath, dir := tt.setup(t, f)
			checkBare(t, f, sc, repoPath, dir)
		})
	}
}

func checkBare(t *testing.T, f *fixture, sc *roots.Scope, repoPath, dir string) {
	r := New(Options{Scope: scope.Static(sc)})
	t.Cleanup(func() { r.Close() })
	checkHistory(t, f, r, sc, repoPath, dir)
	checkNoWorktree(t, r, sc, repoPath)
}

// checkHistory compares git_log, git_show, git_diff between revisions and git_blame at two revisions with git's
// output in dir, whose repository has at least three commits and a.txt.
func checkHistory(t *testing.T, f *fixture, r *Repos, sc *roots.Scope, repoPath, dir string) {
	ctx := testCtx(t)
	t.Run("log", func(t *testing.T) {
		_, out, err := r.logTool(ctx, nil, sc, history.LogArgs{RepoPath: repoPath})
		if err != nil {
			t.Fatal(err)
		}
		got := []string{}
		for _, c := range out.Commits {
			got = append(got, c.Hash)
		}
		if d := cmp.Diff(strings.Fields(f.gitIn(dir, "log", "-20", "--format=%H")), got); d != "" {
			t.Errorf("log mismatch (-git +grove):\n%s", d)
		}
	})
	t.Run("show", func(t *testing.T) {
		res, _, err := r.showTool(ctx, nil, sc, diff.ShowArgs{RepoPath: repoPath, Revision: "HEAD~1"})
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(f.gitIn(dir, "show", "HEAD~1"), resultText(res)); d != "" {
			t.Errorf("show mismatch (-git +grove):\n%s", d)
		}
	})
	t.Run("revisions by hash", func(t *testing.T) {
		full := strings.TrimSpace(f.gitIn(dir, "rev-parse", "HEAD~1"))
		for _, rev := range []string{full, full[:9]} {
			res, out, err := r.showTool(ctx, nil, sc, diff.ShowArgs{RepoPath: repoPath, Revision: rev})
			if err != nil {
				t.Fatalf("git_show %s: %v", rev, err)
			}
			if d := cmp.Diff(f.gitIn(dir, "show", rev), resultText(res)); d != "" {
				t.Errorf("show %s mismatch (-git +grove):\n%s", rev, d)
			}
			if out.Commit.Hash != full {
				t.Errorf("show %s: commit %s, want %s", rev, out.Commit.Hash, full)
			}
		}
	})
	t.Run("diff between revisions", func(t *testing.T) {
		res, _, err := r.diffTool(ctx, nil, sc, diff.DiffArgs{RepoPath: repoPath, Target: "HEAD~2..HEAD"})
		if err != nil {
			t.Fatal(err)
		}
		want := f.gitIn(dir, "diff", "--no-renames", "--no-color", "--no-ext-diff", "HEAD~2", "HEAD")
		if d := cmp.Diff(want, resultText(res)); d != "" {
			t.Errorf("diff mismatch (-git +grove):\n%s", d)
		}
	})
	t.Run("blame", func(t *testing.T) {
		for _, rev := range []string{"HEAD", "HEAD~1"} {
			_, out, err := r.blameTool(ctx, nil, sc, blame.BlameArgs{RepoPath: repoPath, Path: "a.txt", Revision: rev})
			if err != nil {
				t.Fatal(err)
			}
			got := []string{}
			for _, l := range out.Lines {
				got = append(got, fmt.Sprintf("%s %d %d a.txt", l.Commit, l.OrigLine, l.Line))
			}
			if d := cmp.Diff(gitBlameCommits(t, dir, f.home, rev, "a.txt"), got); d != "" {
				t.Errorf("blame %s mismatch (-git +grove):\n%s", rev, d)
			}
		}
	})
}

// checkNoWorktree expects the tools that need a worktree or an index to say a bare repository has none.
func checkNoWorktree(t *testing.T, r *Repos, sc *roots.Scope, repoPath string) {
	ctx := testCtx(t)
	t.Run("no worktree", func(t *testing.T) {
		errs := map[string]error{}
		_, _, errs["status"] = r.status(ctx, nil, sc, status.StatusArgs{RepoPath: repoPath})
		_, _, errs["diff"] = r.diffTool(ctx, nil, sc, diff.DiffArgs{RepoPath: repoPath})
		_, _, errs["diff staged"] = r.diffTool(ctx, nil, sc, diff.DiffArgs{RepoPath: repoPath, Staged: true})
		_, _, errs["diff HEAD vs worktree"] = r.diffTool(ctx, nil, sc, diff.DiffArgs{RepoPath: repoPath, Target: "HEAD"})
		_, _, errs["add"] = r.add(ctx, nil, sc, writecmd.AddArgs{RepoPath: repoPath, Files: []string{"config"}})
		_, _, errs["checkout"] = r.checkout(ctx, nil, sc, writecmd.CheckoutArgs{RepoPath: repoPath, Branch: "main"})
		_, _, errs["commit"] = r.commitTool(ctx, nil, sc, writecmd.CommitArgs{RepoPath: repoPath, Message: "m"})
		for tool, err := range errs {
			if !errors.Is(err, repo.ErrNoWorktree) {
				t.Errorf("%s: %v, want %q", tool, err, repo.ErrNoWorktree)
			}
		}
	})
}

// TestBareOutsideRootsRefused: a bare repository whose alternates lie outside every root reads as no repository.
func TestBareOutsideRootsRefused(t *testing.T) {
	f := layoutBase(t)
	dir := filepath.Join(filepath.Dir(f.dir), "bare.git")
	f.gitIn(filepath.Dir(f.dir), "clone", "-q", "--bare", "--shared", f.dir, dir)
	sc := scopeOf(t, dir)
	r := New(Options{Scope: scope.Static(sc)})
	t.Cleanup(func() { r.Close() })
	_, _, err := r.logTool(testCtx(t), nil, sc, history.LogArgs{})
	if err == nil || !strings.Contains(err.Error(), "no git repository") {
		t.Errorf("git_log on a bare repository with alternates outside the roots: %v, want no git repository", err)
	}
}

// TestBareLookalikeIgnored: a worktree directory with HEAD, objects and refs but no valid HEAD is not taken for a
// bare repository: discovery goes on up to the repository holding it, as git's does.
func TestBareLookalikeIgnored(t *testing.T) {
	f := layoutBase(t)
	f.write("look/HEAD", "not a ref\n", "look/objects/x", "x\n", "look/refs/y", "y\n")
	r, sc := f.repos()
	_, out, err := r.logTool(testCtx(t), nil, sc, history.LogArgs{RepoPath: roots.URI(filepath.Join(f.dir, "look"))})
	if err != nil {
		t.Fatal(err)
	}
	got := []string{}
	for _, c := range out.Commits {
		got = append(got, c.Hash)
	}
	if d := cmp.Diff(strings.Fields(f.git("log", "-20", "--format=%H")), got); d != "" {
		t.Errorf("git_log from look/ mismatch with the enclosing repository's (-git +grove):\n%s", d)
	}
}
