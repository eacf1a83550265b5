package gittools

import (
	"path/filepath"
	"testing"

	"github.com/grove-mcp/grove/gittools/internal/stashcmd"
)

func TestGitStashGitReadsGroves(t *testing.T) {
	f := newWriteFixture(t, map[string]string{"a.txt": "a\n", "b.txt": "b\n", "d/c.txt": "c\n"})
	f.write(map[string]string{"a.txt": "a staged\n", "new.txt": "new\n"})
	f.git("add", "a.txt", "new.txt")
	f.write(map[string]string{"a.txt": "a worktree\n", "d/c.txt": "", "u.txt": "untracked\n"})
	before := f.git("status", "--porcelain")
	var out stashcmd.Out
	f.ok("git_stash", map[string]any{"repo_path": f.dir, "message": "my work"}, &out)
	if got := f.git("status", "--porcelain"); got != "?? u.txt" {
		t.Fatalf("after push, status %q, want only the untracked file", got)
	}
	if got := f.git("stash", "list"); got != "stash@{0}: On master: my work" {
		t.Errorf("git stash list: %q", got)
	}
	if got := f.git("show", "-s", "--format=%s", "stash@{0}^2"); got != "index on master: "+f.git("log", "-1", "--format=%h %s") {
		t.Errorf("index commit subject %q", got)
	}
	if got := f.git("diff", "stash@{0}^1", "stash@{0}", "--name-status"); got != "M\ta.txt\nD\td/c.txt\nA\tnew.txt" {
		t.Errorf("stash content: %q", got)
	}
	f.git("stash", "pop", "--index")
	if got := f.git("status", "--porcelain"); got != before {
		t.Errorf("after git stash pop --index: %q, want %q", got, before)
	}
	if f.read("a.txt") != "a worktree\n" {
		t.Errorf("a.txt = %q", f.read("a.txt"))
	}
}

func TestGitStashGroveReadsGits(t *testing.T) {
	f := newWriteFixture(t, map[string]string{"a.txt": "a\n", "b.txt": "b\n"})
	f.write(map[string]string{"a.txt": "a changed\n", "u.txt": "untracked\n"})
	f.git("stash", "push", "-u")
	f.write(map[string]string{"b.txt": "b changed\n"})
	f.git("stash", "push", "-m", "second")
	var out stashcmd.Out
	f.ok("git_stash", map[string]any{"repo_path": f.dir, "action": "list"}, &out)
	if len(out.Entries) != 2 || out.Entries[0].Message != "On master: second" || out.Entries[1].Name != "stash@{1}" {
		t.Fatalf("list: %+v", out.Entries)
	}
	f.ok("git_stash", map[string]any{"repo_path": f.dir, "action": "show", "index": 1}, &out)
	if want := f.git("stash", "show", "-p", "stash@{1}"); out.Patch != want+"\n" && out.Patch != want {
		t.Errorf("show:\n%s\ngit stash show -p:\n%s", out.Patch, want)
	}
	f.ok("git_stash", map[string]any{"repo_path": f.dir, "action": "pop", "index": 1}, &out)
	if !out.Dropped || f.read("a.txt") != "a changed\n" || f.read("u.txt") != "untracked\n" {
		t.Fatalf("pop: %+v", out)
	}
	if got := f.git("status", "--porcelain"); got != " M a.txt\n?? u.txt" {
		t.Errorf("status after pop: %q", got)
	}
	if got := f.git("stash", "list"); got != "stash@{0}: On master: second" {
		t.Errorf("git stash list after pop: %q", got)
	}
	f.ok("git_stash", map[string]any{"repo_path": f.dir, "action": "drop"}, &out)
	if got := f.git("stash", "list"); got != "" {
		t.Errorf("git stash list after drop: %q", got)
	}
	f.fails("git_stash", map[string]any{"repo_path": f.dir, "action": "drop"}, "no stash")
}

func TestGitStashUntrackedAndConflict(t *testing.T) {
	f := newWriteFixture(t, map[string]string{"a.txt": "one\ntwo\nthree\n"})
	f.write(map[string]string{"a.txt": "one\nTWO stash\nthree\n", "dir/u.txt": "u\n"})
	var out stashcmd.Out
	f.ok("git_stash", map[string]any{"repo_path": f.dir, "include_untracked": true}, &out)
	if got := f.git("status", "--porcelain", "-uall"); got != "" {
		t.Fatalf("status after push -u: %q (%v)", got, out.Saved)
	}
	if got := f.git("show", "--format=", "--name-only", "stash@{0}^3"); got != "dir/u.txt" {
		t.Errorf("untracked commit: %q", got)
	}
	f.commitFiles("upstream edit", map[string]string{"a.txt": "one\nTWO upstream\nthree\n"})
	f.ok("git_stash", map[string]any{"repo_path": f.dir, "action": "pop"}, &out)
	if out.Dropped || len(out.Conflicts) != 1 || out.Conflicts[0].Path != "a.txt" {
		t.Fatalf("pop with a conflict: %+v", out)
	}
	want := "one\n<<<<<<< Updated upstream\nTWO upstream\n=======\nTWO stash\n>>>>>>> Stashed changes\nthree\n"
	if got := f.read("a.txt"); got != want {
		t.Errorf("a.txt:\n%s", got)
	}
	if f.read("dir/u.txt") != "u\n" || f.git("stash", "list") == "" {
		t.Errorf("untracked file or stash lost")
	}
	f.fails("git_stash", map[string]any{"repo_path": f.dir, "action": "push"}, "unmerged")
}

// TestGitStashPathsKeepsTheWholeIndex pushes a stash of one path with grove and the same stash with the git
// program in a twin repository: git's index commit holds the whole index and its worktree commit the index
// plus the worktree's version of the paths; only the paths are reset.
func TestGitStashPathsKeepsTheWholeIndex(t *testing.T) {
	files := map[string]string{"a.txt": "a\n", "b.txt": "b\n", "c.txt": "c\n", "d/e.txt": "e\n"}
	setup := func(f *writeFixture) {
		f.write(map[string]string{"a.txt": "a staged\n", "b.txt": "b staged\n", "new.txt": "new\n"})
		f.git("add", "a.txt", "b.txt", "new.txt")
		f.git("rm", "-q", "d/e.txt")
		f.write(map[string]string{"a.txt": "a worktree\n", "b.txt": "b worktree\n", "c.txt": "c worktree\n"})
	}
	g, k := newWriteFixture(t, files), newWriteFixture(t, files)
	setup(g)
	setup(k)
	var out stashcmd.Out
	g.ok("git_stash", map[string]any{"repo_path": g.dir, "paths": []string{filepath.Join(g.dir, "b.txt")}}, &out)
	k.git("stash", "push", "-q", "--", "b.txt")
	for _, rev := range []string{"stash@{0}^2^{tree}", "stash@{0}^{tree}"} {
		if got, want := g.git("rev-parse", rev), k.git("rev-parse", rev); got != want {
			t.Errorf("%s: grove %s (%s), git %s (%s)", rev, got, g.git("ls-tree", "-r", rev), want, k.git("ls-tree", "-r", rev))
		}
	}
	if got, want := g.git("status", "--porcelain"), k.git("status", "--porcelain"); got != want {
		t.Errorf("status after push: grove %q, git %q", got, want)
	}
	for _, p := range []string{"a.txt", "b.txt", "c.txt"} {
		if got, want := g.read(p), k.read(p); got != want {
			t.Errorf("%s after push: grove %q, git %q", p, got, want)
		}
	}
}
