package gittools

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/grove-mcp/grove/gittools/internal/blame"
	"github.com/grove-mcp/grove/gittools/internal/diff"
	"github.com/grove-mcp/grove/gittools/internal/history"
	"github.com/grove-mcp/grove/gittools/internal/writecmd"
	"github.com/grove-mcp/grove/roots"
	"github.com/grove-mcp/grove/scope"
)

// With several roots, a Git tool without repo_path works on the root that
// holds its absolute path argument; a relative one implies nothing, and the
// error lists the roots.
func TestRepoPathImpliedByPath(t *testing.T) {
	f := newFixture(t)
	f.write("a.txt", "a\n")
	f.commit("initial")
	f.write("a.txt", "b\n")
	sc := scopeOf(t, t.TempDir(), f.dir) // the repository is the second root
	r := New(Options{Scope: scope.Static(sc)})
	defer r.Close()
	abs := filepath.Join(f.dir, "a.txt")

	if _, out, err := r.logTool(testCtx(t), nil, sc, history.LogArgs{Path: abs}); err != nil || len(out.Commits) != 1 {
		t.Errorf("git_log path=%s: %d commits, err %v; want 1 commit", abs, len(out.Commits), err)
	}
	if _, out, err := r.logTool(testCtx(t), nil, sc, history.LogArgs{Path: roots.URI(abs)}); err != nil || len(out.Commits) != 1 {
		t.Errorf("git_log path=%s: %d commits, err %v; want 1 commit", roots.URI(abs), len(out.Commits), err)
	}
	if _, out, err := r.diffTool(testCtx(t), nil, sc, diff.DiffArgs{Path: abs}); err != nil || len(out.Files) != 1 {
		t.Errorf("git_diff path=%s: %+v, err %v; want one changed file", abs, out.Files, err)
	}
	if _, out, err := r.blameTool(testCtx(t), nil, sc, blame.BlameArgs{Path: abs}); err != nil || out.Total != 1 {
		t.Errorf("git_blame path=%s: total %d, err %v; want 1 line", abs, out.Total, err)
	}
	if _, _, err := r.add(testCtx(t), nil, sc, writecmd.AddArgs{Files: []string{abs}}); err != nil {
		t.Errorf("git_add files=[%s]: %v", abs, err)
	}
	if _, _, err := r.reset(testCtx(t), nil, sc, writecmd.ResetArgs{Files: []string{"a.txt", abs}}); err != nil {
		t.Errorf("git_reset files=[a.txt %s]: %v", abs, err)
	}
	_, _, err := r.logTool(testCtx(t), nil, sc, history.LogArgs{Path: "a.txt"})
	if err == nil || !strings.Contains(err.Error(), "repo_path is needed") || !strings.Contains(err.Error(), roots.URI(f.dir)) {
		t.Errorf("git_log path=a.txt with two roots: err %v, want repo_path needed, listing the roots", err)
	}
}

// git_init without repo_path makes the only root a repository; with several
// roots it names them instead of choosing one.
func TestInitDefaultsToTheOnlyRoot(t *testing.T) {
	dir := t.TempDir()
	sc := scopeOf(t, dir)
	r := New(Options{Scope: scope.Static(sc)})
	defer r.Close()
	_, out, err := r.initRepo(testCtx(t), nil, sc, writecmd.InitArgs{})
	if err != nil {
		t.Fatal(err)
	}
	if real, _ := filepath.EvalSymlinks(dir); out.Path != real {
		t.Errorf("git_init made %s, want the root %s", out.Path, real)
	}

	two := scopeOf(t, t.TempDir(), t.TempDir())
	if _, _, err := r.initRepo(testCtx(t), nil, two, writecmd.InitArgs{}); err == nil || !strings.Contains(err.Error(), "grove has 2 roots") {
		t.Errorf("git_init with two roots: %v, want an error listing them", err)
	}
}
