package gittools

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/grove-mcp/grove/gittools/internal/mergecmd"
)

// branchFixture is a repository with master and topic diverged from a common commit: topic commits
// topicFiles, master then commits masterFiles ("" deletes).
func branchFixture(t *testing.T, base, topicFiles, masterFiles map[string]string) *writeFixture {
	t.Helper()
	f := newWriteFixture(t, base)
	f.git("checkout", "-q", "-b", "topic")
	f.commitFiles("topic work", topicFiles)
	f.git("checkout", "-q", "master")
	f.commitFiles("master work", masterFiles)
	return f
}

// commitFiles writes files and commits them with the git CLI.
func (f *writeFixture) commitFiles(msg string, files map[string]string) {
	f.t.Helper()
	f.write(files)
	f.git("add", "-A")
	f.git("commit", "-q", "-m", msg)
}

// gitMergeClone merges topic into master in a clone with the git program and returns the clone's directory.
func (f *writeFixture) gitMergeClone(args ...string) string {
	f.t.Helper()
	dir := filepath.Join(realTemp(f.t), "clone")
	f.git("clone", "-q", "-b", "master", f.dir, dir)
	for _, a := range args {
		exec.Command("git", "-C", dir, "branch", "-q", a, "origin/"+a).Run()
	}
	cmd := exec.Command("git", append([]string{"-C", dir, "merge", "-q", "--no-edit"}, args...)...)
	cmd.Run() // conflicts exit 1
	return dir
}

func TestGitMergeCleanMatchesGit(t *testing.T) {
	f := branchFixture(t, map[string]string{"a.txt": "a\nb\nc\n", "b.txt": "1\n2\n3\n", "old.txt": "x\ny\nz\nw\n"},
		map[string]string{"b.txt": "1\n2\n3\n4\n", "old.txt": "", "new.txt": "x\ny\nz\nw\n"},
		map[string]string{"a.txt": "A\nb\nc\n"})
	want := f.git("merge-tree", "--write-tree", "master", "topic")
	var out mergecmd.Out
	text := f.ok("git_merge", map[string]any{"repo_path": f.dir, "revision": "topic"}, &out)
	if out.Result != mergecmd.ResultMerged || out.Commit == "" {
		t.Fatalf("result %+v (%s), want merged with a commit", out, text)
	}
	if got := f.git("rev-parse", "HEAD^{tree}"); got != want {
		t.Errorf("merged tree %s, git merge-tree gives %s", got, want)
	}
	if got := f.git("log", "-1", "--format=%P%n%s"); got != f.git("rev-parse", "HEAD^1")+" "+f.git("rev-parse", "topic")+"\nMerge branch 'topic'" {
		t.Errorf("parents and subject: %q", got)
	}
	if got := f.git("status", "--porcelain"); got != "" {
		t.Errorf("git status after the merge: %q", got)
	}
	if got := f.git("reflog", "-1", "--format=%gs"); got != "merge topic: Merge made by the 'ort' strategy." {
		t.Errorf("reflog %q", got)
	}
	f.git("fsck", "--no-progress")
	f.ok("git_merge", map[string]any{"repo_path": f.dir, "revision": "topic"}, &out)
	if out.Result != mergecmd.ResultUpToDate {
		t.Errorf("second merge: %+v, want up-to-date", out)
	}
}

// TestGitMergeWritesOnePack: the trees and merged blobs of a merge go into one pack, which git reads (fsck,
// merge-tree's tree) and grove reads at once in the same session (git_show through the new tree, then a
// second merge whose base is the first merge's commit).
func TestGitMergeWritesOnePack(t *testing.T) {
	f := branchFixture(t, map[string]string{"d/a.txt": "a\nb\nc\n", "e/b.txt": "1\n2\n3\n"},
		map[string]string{"d/a.txt": "a\nb\nc\ntopic\n"},
		map[string]string{"d/a.txt": "master\na\nb\nc\n", "e/b.txt": "1\n2\n3\n4\n"})
	var out mergecmd.Out
	f.ok("git_merge", map[string]any{"repo_path": f.dir, "revision": "topic"}, &out)
	if got := f.git("count-objects", "-v"); !strings.Contains(got, "\npacks: 1\n") {
		t.Errorf("the merge's objects are not in one pack: git count-objects -v says\n%s", got)
	}
	f.git("fsck", "--no-progress", "--strict")
	if text := f.ok("git_show", map[string]any{"repo_path": f.dir, "revision": "HEAD", "path": "d/a.txt"}, nil); !strings.Contains(text, "master\na\nb\nc\ntopic\n") {
		t.Errorf("git_show of the merged file: %s", text)
	}
	if got, want := f.git("rev-parse", "HEAD^{tree}"), f.git("merge-tree", "--write-tree", "HEAD^1", "topic"); got != want {
		t.Errorf("merged tree %s, git merge-tree gives %s", got, want)
	}
	f.git("checkout", "-q", "topic")
	f.commitFiles("more topic", map[string]string{"e/b.txt": "0\n1\n2\n3\n"})
	f.git("checkout", "-q", "master")
	f.ok("git_merge", map[string]any{"repo_path": f.dir, "revision": "topic"}, &out)
	if out.Result != mergecmd.ResultMerged || f.read("e/b.txt") != "0\n1\n2\n3\n4\n" {
		t.Errorf("second merge: %+v, e/b.txt %q", out, f.read("e/b.txt"))
	}
	f.git("fsck", "--no-progress", "--strict")
}

func TestGitMergeFastForward(t *testing.T) {
	f := newWriteFixture(t, map[string]string{"a.txt": "a\n"})
	f.git("checkout", "-q", "-b", "topic")
	f.commitFiles("more", map[string]string{"b.txt": "b\n", "a.txt": "a2\n"})
	f.git("checkout", "-q", "master")
	topic := f.git("rev-parse", "topic")
	f.fails("git_merge", map[string]any{"repo_path": f.dir, "revision": "topic", "ff": "bogus"}, "must be one of")
	var out mergecmd.Out
	f.ok("git_merge", map[string]any{"repo_path": f.dir, "revision": "topic", "ff": "only"}, &out)
	if out.Result != mergecmd.ResultFastForward || out.Commit != topic || f.git("rev-parse", "master") != topic {
		t.Fatalf("%+v, want a fast-forward of master to %s", out, topic)
	}
	if f.read("b.txt") != "b\n" || f.read("a.txt") != "a2\n" || f.git("status", "--porcelain") != "" {
		t.Errorf("worktree after fast-forward: status %q", f.git("status", "--porcelain"))
	}
}

func TestGitMergeNoFFMakesACommit(t *testing.T) {
	f := newWriteFixture(t, map[string]string{"a.txt": "a\n"})
	f.git("checkout", "-q", "-b", "topic")
	f.commitFiles("more", map[string]string{"b.txt": "b\n"})
	f.git("checkout", "-q", "master")
	var out mergecmd.Out
	f.ok("git_merge", map[string]any{"repo_path": f.dir, "revision": "topic", "ff": "never", "message": "join"}, &out)
	if out.Result != mergecmd.ResultMerged || f.git("log", "-1", "--format=%s %P") != "join "+f.git("rev-parse", "HEAD^1")+" "+f.git("rev-parse", "topic") {
		t.Errorf("%+v: %s", out, f.git("log", "-1", "--format=%s %P"))
	}
}

func TestGitMergeConflictsAsGitLeavesThem(t *testing.T) {
	base := map[string]string{"a.txt": "one\ntwo\nthree\n", "keep.txt": "k\n", "gone.txt": "g\n"}
	f := branchFixture(t, base,
		map[string]string{"a.txt": "one\nTWO topic\nthree\n", "gone.txt": "g changed\n", "both.txt": "topic\n"},
		map[string]string{"a.txt": "one\nTWO master\nthree\n", "gone.txt": "", "both.txt": "master\n"})
	clone := f.gitMergeClone("topic")
	before := f.git("rev-parse", "HEAD")
	var out mergecmd.Out
	text := f.ok("git_merge", map[string]any{"repo_path": f.dir, "revision": "topic"}, &out)
	want := []mergecmd.ConflictOut{{Path: "a.txt", Kind: "content"}, {Path: "both.txt", Kind: "add/add"}, {Path: "gone.txt", Kind: "modify/delete"}}
	if diff := cmp.Diff(want, out.Conflicts); diff != "" || out.Result != mergecmd.ResultConflicts {
		t.Fatalf("conflicts mismatch (-want +got):\n%s\n%s", diff, text)
	}
	for _, p := range []string{"a.txt", "both.txt", "gone.txt"} {
		wantData, _ := os.ReadFile(filepath.Join(clone, p))
		if got := f.read(p); got != string(wantData) {
			t.Errorf("%s:\n%s\ngit merge leaves:\n%s", p, got, wantData)
		}
	}
	gitCmd := func(dir string, args ...string) string {
		out, _ := exec.Command("git", append([]string{"-C", dir}, args...)...).Output()
		return strings.TrimSpace(string(out))
	}
	if got, want := f.git("ls-files", "-u"), gitCmd(clone, "ls-files", "-u"); got != want {
		t.Errorf("ls-files -u:\n%s\ngit:\n%s", got, want)
	}
	if got, want := f.git("status", "--porcelain"), gitCmd(clone, "status", "--porcelain"); got != want {
		t.Errorf("status:\n%s\ngit:\n%s", got, want)
	}
	if got := f.git("rev-parse", "MERGE_HEAD"); got != f.git("rev-parse", "topic") {
		t.Errorf("MERGE_HEAD %s", got)
	}
	f.fails("git_merge", map[string]any{"repo_path": f.dir, "revision": "topic"}, "merge is in progress")
	f.fails("git_commit", map[string]any{"repo_path": f.dir, "message": ""}, "unmerged")

	f.ok("git_merge", map[string]any{"repo_path": f.dir, "action": "abort"}, &out)
	if out.Result != mergecmd.ResultAborted || f.git("status", "--porcelain") != "" || f.git("rev-parse", "HEAD") != before {
		t.Fatalf("after abort: %+v, status %q", out, f.git("status", "--porcelain"))
	}
	if _, err := os.Stat(filepath.Join(f.dir, ".git", "MERGE_HEAD")); err == nil {
		t.Error("MERGE_HEAD left after abort")
	}

	f.ok("git_merge", map[string]any{"repo_path": f.dir, "revision": "topic"}, &out)
	f.write(map[string]string{"a.txt": "one\nTWO both\nthree\n", "both.txt": "both\n"})
	f.ok("git_add", map[string]any{"repo_path": f.dir, "files": []string{"a.txt", "both.txt", "gone.txt"}}, nil)
	f.ok("git_commit", map[string]any{"repo_path": f.dir, "message": ""}, nil)
	if got := f.git("log", "-1", "--format=%P%n%B"); got != before+" "+f.git("rev-parse", "topic")+"\nMerge branch 'topic'" {
		t.Errorf("concluding commit: %q", got)
	}
	if got := f.git("status", "--porcelain"); got != "" {
		t.Errorf("status after concluding: %q", got)
	}
}

func TestGitMergeRefusals(t *testing.T) {
	f := branchFixture(t, map[string]string{"a.txt": "a\n", "b.txt": "b\n"},
		map[string]string{"a.txt": "a topic\n"}, map[string]string{"b.txt": "b master\n"})
	f.write(map[string]string{"a.txt": "a local\n"})
	f.fails("git_merge", map[string]any{"repo_path": f.dir, "revision": "topic"}, "would be overwritten")
	if f.read("a.txt") != "a local\n" {
		t.Error("a refused merge changed the worktree")
	}
	f.write(map[string]string{"a.txt": "a\n", "b.txt": "b staged\n"})
	f.git("add", "b.txt")
	f.fails("git_merge", map[string]any{"repo_path": f.dir, "revision": "topic"}, "staged changes")
	f.git("reset", "-q", "--hard")
	f.git("checkout", "-q", "--orphan", "other")
	f.git("rm", "-q", "-rf", ".")
	f.commitFiles("unrelated", map[string]string{"z.txt": "z\n"})
	f.git("checkout", "-q", "master")
	f.fails("git_merge", map[string]any{"repo_path": f.dir, "revision": "other"}, "unrelated histories")
	var out mergecmd.Out
	f.ok("git_merge", map[string]any{"repo_path": f.dir, "revision": "other", "allow_unrelated_histories": true}, &out)
	if out.Result != mergecmd.ResultMerged || f.read("z.txt") != "z\n" {
		t.Errorf("unrelated merge: %+v", out)
	}
	f.fails("git_merge", map[string]any{"repo_path": f.dir, "revision": "--output=x"}, "")
	f.fails("git_merge", map[string]any{"repo_path": f.dir, "action": "abort"}, "no merge to abort")
}

func TestGitStatusSaysAMergeIsInProgress(t *testing.T) {
	f := branchFixture(t, map[string]string{"a.txt": "one\n"}, map[string]string{"a.txt": "topic\n"}, map[string]string{"a.txt": "master\n"})
	f.ok("git_merge", map[string]any{"repo_path": f.dir, "revision": "topic"}, nil)
	text := f.ok("git_status", map[string]any{"repo_path": f.dir}, nil)
	if !strings.Contains(text, "UU a.txt") || !strings.Contains(text, "A merge is in progress") {
		t.Errorf("git_status during a conflicted merge:\n%s", text)
	}
}
