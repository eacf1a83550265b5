package gittools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/grove-mcp/grove/gittools/internal/writecmd"

	"github.com/google/go-cmp/cmp"
)

func TestGitResetUnstagesAndKeepsWorktree(t *testing.T) {
	f := newWriteFixture(t, map[string]string{"a.txt": "a\n", "b.txt": "b\n", "d/c.txt": "c\n"})
	f.write(map[string]string{"a.txt": "a2\n", "b.txt": "b2\n", "d/c.txt": "c2\n", "new.txt": "n\n"})
	f.ok("git_add", map[string]any{"repo_path": f.dir, "files": []string{"."}}, nil)

	var out writecmd.ResetOut
	f.ok("git_reset", map[string]any{"repo_path": f.dir, "files": []string{"a.txt", "d"}}, &out)
	if diff := cmp.Diff([]string{"a.txt", "d/c.txt"}, out.Unstaged); diff != "" {
		t.Errorf("Unstaged mismatch (-want +got):\n%s", diff)
	}
	if got := f.git("diff", "--cached", "--name-only"); got != "b.txt\nnew.txt" {
		t.Errorf("after a partial reset git diff --cached --name-only = %q", got)
	}
	f.ok("git_reset", map[string]any{"repo_path": f.dir}, nil)
	if got := f.git("diff", "--cached", "--name-only"); got != "" {
		t.Errorf("after a full reset something is still staged: %q", got)
	}
	want := " M a.txt\n M b.txt\n M d/c.txt\n?? new.txt"
	if got := f.git("status", "--porcelain"); got != want {
		t.Errorf("git status --porcelain = %q, want %q", got, want)
	}
	for name, want := range map[string]string{"a.txt": "a2\n", "b.txt": "b2\n", "d/c.txt": "c2\n", "new.txt": "n\n"} {
		if got := f.read(name); got != want {
			t.Errorf("reset changed the worktree: %s = %q, want %q", name, got, want)
		}
	}
	f.fails("git_reset", map[string]any{"repo_path": f.dir, "files": []string{"nothing-here"}}, "did not match")

	f.ok("git_add", map[string]any{"repo_path": f.dir, "files": []string{"a.txt"}}, nil)
	f.write(map[string]string{"a.txt": "a3 only in the worktree\n"})
	f.ok("git_reset", map[string]any{"repo_path": f.dir, "files": []string{"a.txt"}}, &out)
	if len(out.StagedOnly) != 1 || !strings.HasPrefix(out.StagedOnly[0], "a.txt (blob ") {
		t.Fatalf("StagedOnly = %q, want the staged version of a.txt named", out.StagedOnly)
	}
	blob := strings.TrimSuffix(strings.TrimPrefix(out.StagedOnly[0], "a.txt (blob "), ")")
	if got := f.git("cat-file", "-p", blob); got != "a2" {
		t.Errorf("the staged-only blob %s holds %q, want the staged content", blob, got)
	}
	f.fails("git_reset", map[string]any{"repo_path": f.dir, "files": []string{"--hard"}}, "must not start with '-'")
	f.fails("git_reset", map[string]any{"repo_path": f.dir, "files": []string{"../x"}}, "'..' is not allowed")
}

func TestGitCommitUsesEnvironmentIdentity(t *testing.T) {
	f := newWriteFixture(t, map[string]string{"a.txt": "a\n"})
	f.write(map[string]string{"a.txt": "a2\n", "b.txt": "b\n"})
	f.ok("git_add", map[string]any{"repo_path": f.dir, "files": []string{"a.txt", "b.txt"}}, nil)
	var out writecmd.CommitOut
	f.ok("git_commit", map[string]any{"repo_path": f.dir, "message": "  Change a, add b  \n\n\n\nBody line.  \n\n"}, &out)

	got := f.git("log", "-1", "--format=%an%n%ae%n%cn%n%ce%n%B")
	want := strings.Join([]string{testAuthorName, testAuthorEmail, testCommitterName, testCommitterEmail,
		"  Change a, add b", "", "Body line."}, "\n")
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("git log -1 mismatch (-want +got):\n%s", diff)
	}
	if short := f.git("rev-parse", "--short=7", "HEAD"); out.Short != short || out.Branch != "master" || out.Files != 2 {
		t.Errorf("CommitOut = %+v, want short %s on master with 2 files", out, short)
	}
	if got := f.git("status", "--porcelain"); got != "" {
		t.Errorf("git status after commit = %q, want clean", got)
	}
	if got := f.git("rev-parse", "HEAD~1"); got == "" {
		t.Error("the commit has no parent")
	}
	f.git("fsck", "--strict")
	f.fails("git_commit", map[string]any{"repo_path": f.dir, "message": "again"}, "nothing to commit")
	f.fails("git_commit", map[string]any{"repo_path": f.dir, "message": " \n\t\n"}, "empty commit message")
}

func TestGitCommitIdentityFromConfig(t *testing.T) {
	f := newWriteFixture(t, map[string]string{"a.txt": "a\n"})
	for _, v := range []string{"GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL"} {
		os.Unsetenv(v)
	}
	f.write(map[string]string{"a.txt": "a2\n"})
	f.ok("git_add", map[string]any{"repo_path": f.dir, "files": []string{"a.txt"}}, nil)
	f.fails("git_commit", map[string]any{"repo_path": f.dir, "message": "no identity"}, "no git identity configured")
	if got := f.git("rev-list", "--count", "HEAD"); got != "1" {
		t.Fatalf("a commit was made without an identity: %s commits", got)
	}

	home := os.Getenv("HOME")
	global := "[user]\n\tname = Global Name\n\temail = global@example.com\n"
	if err := os.WriteFile(filepath.Join(home, ".gitconfig"), []byte(global), 0o644); err != nil {
		t.Fatal(err)
	}
	f.ok("git_commit", map[string]any{"repo_path": f.dir, "message": "from global"}, nil)
	if got := f.git("log", "-1", "--format=%an <%ae> %cn <%ce>"); got != "Global Name <global@example.com> Global Name <global@example.com>" {
		t.Errorf("identity from ~/.gitconfig: got %q", got)
	}

	f.git("config", "user.name", "Repo Name")
	f.write(map[string]string{"a.txt": "a3\n"})
	f.ok("git_add", map[string]any{"repo_path": f.dir, "files": []string{"a.txt"}}, nil)
	f.ok("git_commit", map[string]any{"repo_path": f.dir, "message": "from repo"}, nil)
	if got := f.git("log", "-1", "--format=%an <%ae>"); got != "Repo Name <global@example.com>" {
		t.Errorf("repo config over global: got %q", got)
	}
}

func TestGitInitThenFirstCommit(t *testing.T) {
	isolateGit(t)
	root := realTemp(t)
	f := &writeFixture{t: t, root: root, dir: filepath.Join(root, "proj", "new"), cs: connectWriteTools(t, root)}
	var out writecmd.InitOut
	f.ok("git_init", map[string]any{"repo_path": f.dir}, &out)
	if got := f.git("rev-parse", "--git-dir"); got != ".git" {
		t.Errorf("git rev-parse in the new repository = %q", got)
	}
	if got := f.git("symbolic-ref", "HEAD"); got != "refs/heads/"+out.Branch {
		t.Errorf("HEAD = %q, want refs/heads/%s", got, out.Branch)
	}
	f.fails("git_init", map[string]any{"repo_path": f.dir}, "already a git repository")

	f.write(map[string]string{"README": "hello\n"})
	f.ok("git_add", map[string]any{"repo_path": f.dir, "files": []string{"README"}}, nil)
	f.ok("git_commit", map[string]any{"repo_path": f.dir, "message": "first"}, nil)
	if got := f.git("log", "--format=%s", "HEAD"); got != "first" {
		t.Errorf("git log = %q", got)
	}
	f.git("fsck", "--strict")
}

func TestGitInitOutsideRoots(t *testing.T) {
	isolateGit(t)
	root, outside := realTemp(t), realTemp(t)
	f := &writeFixture{t: t, root: root, dir: root, cs: connectWriteTools(t, root)}
	for _, p := range []string{filepath.Join(outside, "x"), root + "/../" + filepath.Base(outside) + "/y", "file://" + outside} {
		f.fails("git_init", map[string]any{"repo_path": p}, "no such file or directory")
	}
	ents, err := os.ReadDir(outside)
	if err != nil || len(ents) != 0 {
		t.Errorf("git_init wrote outside the roots: %v %v", ents, err)
	}
	f.fails("git_init", map[string]any{"repo_path": filepath.Join(root, ".git", "x")}, "no such file or directory")
}
