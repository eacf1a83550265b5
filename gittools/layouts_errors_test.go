package gittools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/grove-mcp/grove/gittools/internal/blame"
	"github.com/grove-mcp/grove/gittools/internal/diff"
	"github.com/grove-mcp/grove/gittools/internal/history"
	"github.com/grove-mcp/grove/gittools/internal/status"
	"github.com/grove-mcp/grove/roots"
	"github.com/grove-mcp/grove/scope"
)

// toolErrors calls git_status, git_log, git_diff and git_blame (of path) on repoPath and returns their errors.
func toolErrors(t *testing.T, sc *roots.Scope, repoPath, path string) map[string]error {
	t.Helper()
	r := New(Options{Scope: scope.Static(sc)})
	t.Cleanup(func() { r.Close() })
	ctx := testCtx(t)
	errs := map[string]error{}
	_, _, errs["status"] = r.status(ctx, nil, sc, status.StatusArgs{RepoPath: repoPath})
	_, _, errs["log"] = r.logTool(ctx, nil, sc, history.LogArgs{RepoPath: repoPath})
	_, _, errs["diff"] = r.diffTool(ctx, nil, sc, diff.DiffArgs{RepoPath: repoPath})
	_, _, errs["blame"] = r.blameTool(ctx, nil, sc, blame.BlameArgs{RepoPath: repoPath, Path: path})
	return errs
}

// everyTool expects the same error text in every tool.
func everyTool(want ...string) map[string][]string {
	return map[string][]string{"status": want, "log": want, "diff": want, "blame": want}
}

// TestLayoutsRefusedClearly: a layout grove cannot read gets an error that says why and what to do, never
// "no such file or directory"; what it can read still works.
func TestLayoutsRefusedClearly(t *testing.T) {
	for _, tt := range []struct {
		name  string
		setup func(t *testing.T, f *fixture) (sc *roots.Scope, repoPath, path string)
		want  map[string][]string // tool -> substrings of its error; a tool left out must succeed
	}{
		{"linked worktree without its main repository", func(t *testing.T, f *fixture) (*roots.Scope, string, string) {
			wt := filepath.Join(filepath.Dir(f.dir), "wt")
			f.git("worktree", "add", "-q", "-b", "topic", wt)
			return scopeOf(t, wt), "", filepath.Join(wt, "a.txt")
		}, everyTool("outside every root", "--root", "the main repository", "/repo/.git/worktrees/wt")},
		{"gitdir outside every root, present", func(t *testing.T, f *fixture) (*roots.Scope, string, string) {
			out := filepath.Join(filepath.Dir(f.dir), "elsewhere.git")
			os.Rename(filepath.Join(f.dir, ".git"), out)
			os.WriteFile(filepath.Join(f.dir, ".git"), []byte("gitdir: ../elsewhere.git\n"), 0o644)
			return scopeOf(t, f.dir), "", "a.txt"
		}, everyTool(`names the git directory "../elsewhere.git", which is outside every root`, "--root")},
		{"gitdir outside every root, absent", func(t *testing.T, f *fixture) (*roots.Scope, string, string) {
			os.RemoveAll(filepath.Join(f.dir, ".git"))
			os.WriteFile(filepath.Join(f.dir, ".git"), []byte("gitdir: ../elsewhere.git\n"), 0o644)
			return scopeOf(t, f.dir), "", "a.txt"
		}, everyTool(`names the git directory "../elsewhere.git", which is outside every root`, "--root")},
		{"unknown repository extension", func(t *testing.T, f *fixture) (*roots.Scope, string, string) {
			f.git("config", "core.repositoryFormatVersion", "1")
			f.git("config", "extensions.frobnicate", "true")
			return scopeOf(t, f.dir), "", "a.txt"
		}, everyTool(`repository extension "frobnicate"`)},
		{"partial clone: blame reaches a missing blob", func(t *testing.T, f *fixture) (*roots.Scope, string, string) {
			f.git("config", "uploadpack.allowFilter", "true")
			dir := filepath.Join(filepath.Dir(f.dir), "partial")
			f.gitIn(filepath.Dir(f.dir), "clone", "-q", "--filter=blob:none", "file://"+f.dir, dir)
			return scopeOf(t, dir), "", "a.txt"
		}, map[string][]string{"blame": {"is missing: this is a partial clone", "never fetches"}}},
		{"bare repository as the root", func(t *testing.T, f *fixture) (*roots.Scope, string, string) {
			dir := filepath.Join(filepath.Dir(f.dir), "bare.git")
			f.gitIn(filepath.Dir(f.dir), "clone", "-q", "--bare", f.dir, dir)
			return scopeOf(t, dir), "", "a.txt"
		}, map[string][]string{
			"status": {"is a bare repository: there is no worktree", "git_log, git_show, git_blame and git_diff between two revisions"},
			"diff":   {"is a bare repository: there is no worktree", "give a clone's or a linked worktree's directory as the root"},
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := layoutBase(t)
			sc, repoPath, path := tt.setup(t, f)
			for tool, err := range toolErrors(t, sc, repoPath, path) {
				want, fails := tt.want[tool]
				switch {
				case !fails && err != nil:
					t.Errorf("%s: %v", tool, err)
				case fails && err == nil:
					t.Errorf("%s: no error, want one saying %q", tool, want)
				case fails && strings.Contains(err.Error(), "no such file"):
					t.Errorf("%s: %v, want no \"no such file\"", tool, err)
				case fails:
					for _, w := range want {
						if !strings.Contains(err.Error(), w) {
							t.Errorf("%s: %v, want it to say %q", tool, err, w)
						}
					}
				}
			}
		})
	}
}
