package gittools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/grove-mcp/grove/gittools/internal/writecmd"

	"github.com/go-git/go-git/v5"
)

func TestWriteToolsOutsideRootsReadLikeMissing(t *testing.T) {
	f := newWriteFixture(t, map[string]string{"a.txt": "a\n"})
	other := newWriteFixture(t, map[string]string{"b.txt": "b\n"}) // a real repository, but not in f's roots
	other.write(map[string]string{"b.txt": "changed\n"})
	for _, call := range []struct {
		tool string
		args map[string]any
	}{
		{"git_add", map[string]any{"files": []string{"b.txt"}}},
		{"git_reset", map[string]any{}},
		{"git_commit", map[string]any{"message": "m"}},
		{"git_create_branch", map[string]any{"branch_name": "x"}},
		{"git_checkout", map[string]any{"branch": "master"}},
	} {
		var texts []string
		for _, dir := range []string{other.dir, filepath.Join(f.dir, "missing")} {
			call.args["repo_path"] = dir
			text := f.fails(call.tool, call.args, "no such file or directory within the allowed roots")
			texts = append(texts, strings.ReplaceAll(text, dir, "DIR"))
		}
		if texts[0] != texts[1] {
			t.Errorf("%s: outside the roots %q, missing %q: they must read the same", call.tool, texts[0], texts[1])
		}
	}
	if got := other.git("diff", "--cached", "--name-only"); got != "" {
		t.Errorf("a repository outside the roots was changed: %q", got)
	}
}

func TestWriteToolsRespectIndexLock(t *testing.T) {
	f := newWriteFixture(t, map[string]string{"a.txt": "a\n"})
	f.write(map[string]string{"a.txt": "changed\n"})
	lock := filepath.Join(f.dir, ".git", "index.lock")
	if err := os.WriteFile(lock, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	f.fails("git_add", map[string]any{"repo_path": f.dir, "files": []string{"a.txt"}}, "index.lock exists")
	if err := os.Remove(lock); err != nil {
		t.Fatal(err)
	}
	if got := f.git("diff", "--cached", "--name-only"); got != "" {
		t.Errorf("the index was written despite index.lock: %q", got)
	}
	f.ok("git_add", map[string]any{"repo_path": f.dir, "files": []string{"a.txt"}}, nil)
}

func TestGitCommitOnDetachedHead(t *testing.T) {
	f := newWriteFixture(t, map[string]string{"a.txt": "a\n"})
	repo, err := git.PlainOpen(f.dir)
	if err != nil {
		t.Fatal(err)
	}
	head, err := repo.Head()
	if err != nil {
		t.Fatal(err)
	}
	w, err := repo.Worktree()
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Checkout(&git.CheckoutOptions{Hash: head.Hash()}); err != nil {
		t.Fatal(err)
	}
	f.write(map[string]string{"a.txt": "detached\n"})
	f.ok("git_add", map[string]any{"repo_path": f.dir, "files": []string{"a.txt"}}, nil)
	var out writecmd.CommitOut
	f.ok("git_commit", map[string]any{"repo_path": f.dir, "message": "on a detached HEAD"}, &out)
	if out.Branch != "" || f.git("rev-parse", "HEAD") != out.Hash || f.git("rev-parse", "master") != head.Hash().String() {
		t.Errorf("CommitOut = %+v; HEAD %s, master %s", out, f.git("rev-parse", "HEAD"), f.git("rev-parse", "master"))
	}
	if got := f.git("rev-parse", "HEAD~1"); got != head.Hash().String() {
		t.Errorf("parent = %s, want %s", got, head.Hash())
	}
}

func TestWriteToolsLogRefUpdates(t *testing.T) {
	f := newBranchFixture(t)
	before := f.git("rev-parse", "HEAD")
	f.write(map[string]string{"same.txt": "edited\n"})
	f.ok("git_add", map[string]any{"repo_path": f.dir, "files": []string{"same.txt"}}, nil)
	f.ok("git_commit", map[string]any{"repo_path": f.dir, "message": "Edit same\n\nbody"}, nil)
	f.ok("git_create_branch", map[string]any{"repo_path": f.dir, "branch_name": "topic"}, nil)
	f.ok("git_checkout", map[string]any{"repo_path": f.dir, "branch": "topic"}, nil)

	head := f.git("rev-parse", "HEAD")
	for _, tt := range []struct{ ref, want string }{
		{"master", before + " " + head + " commit: Edit same"},
		{"topic", "0000000000000000000000000000000000000000 " + head + " branch: Created from HEAD"},
		{"HEAD", head + " " + head + " checkout: moving from master to topic\n" + before + " " + head + " commit: Edit same"},
	} {
		f.git("log", "-g", "-1", "--format=%H", tt.ref) // git can read the reflog
		lines := f.readReflog(tt.ref)
		if !strings.HasPrefix(lines, tt.want) {
			t.Errorf("reflog of %s:\n%s\nwant it to start with\n%s", tt.ref, lines, tt.want)
		}
	}
	if got := f.git("reflog", "-1", "--format=%gs", "HEAD"); got != "checkout: moving from master to topic" {
		t.Errorf("git reflog -1 = %q", got)
	}
}

// readReflog returns a reflog's entries, newest first, as "old new message" lines.
func (f *writeFixture) readReflog(ref string) string {
	f.t.Helper()
	name := ref
	if ref != "HEAD" {
		name = "refs/heads/" + ref
	}
	data, err := os.ReadFile(filepath.Join(f.dir, ".git", "logs", filepath.FromSlash(name)))
	if err != nil {
		f.t.Fatal(err)
	}
	var out []string
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		head, msg, _ := strings.Cut(line, "\t")
		fields := strings.Fields(head)
		out = append([]string{fields[0] + " " + fields[1] + " " + msg}, out...)
	}
	return strings.Join(out, "\n")
}
