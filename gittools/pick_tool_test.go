package gittools

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/grove-mcp/grove/gittools/internal/mergecmd"
)

// cloneRun clones the fixture's master into a new directory and runs git there (errors ignored: conflicts
// exit non-zero); it returns the directory.
func (f *writeFixture) cloneRun(args ...string) string {
	f.t.Helper()
	dir := filepath.Join(realTemp(f.t), "clone")
	f.git("clone", "-q", "-b", "master", f.dir, dir)
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Run()
	return dir
}

func gitIn(dir string, args ...string) string {
	out, _ := exec.Command("git", append([]string{"-C", dir}, args...)...).Output()
	return strings.TrimSpace(string(out))
}

func TestGitCherryPickMatchesGit(t *testing.T) {
	f := branchFixture(t, map[string]string{"a.txt": "1\n2\n3\n4\n5\n6\n7\n8\n", "b.txt": "b\n"},
		map[string]string{"a.txt": "1\n2\n3\n4\n5\n6\n7\nEIGHT\n"}, map[string]string{"a.txt": "ONE\n2\n3\n4\n5\n6\n7\n8\n"})
	f.git("checkout", "-q", "topic")
	f.commitFiles("second on topic", map[string]string{"c.txt": "c\n"})
	c1, c2 := f.git("rev-parse", "topic~1"), f.git("rev-parse", "topic")
	f.git("checkout", "-q", "master")
	clone := f.cloneRun("cherry-pick", c1, c2)
	var out mergecmd.Out
	text := f.ok("git_cherry_pick", map[string]any{"repo_path": f.dir, "revisions": []string{c1, "topic"}}, &out)
	if out.Result != mergecmd.ResultMerged || len(out.Picked) != 2 {
		t.Fatalf("%+v: %s", out, text)
	}
	for _, format := range []string{"%T", "%an <%ae> %ad%n%B"} {
		for i := range 2 {
			rev := []string{"HEAD~1", "HEAD"}[i]
			if got, want := f.git("log", "-1", "--format="+format, rev), gitIn(clone, "log", "-1", "--format="+format, rev); got != want {
				t.Errorf("%s %s: %q, git cherry-pick gives %q", rev, format, got, want)
			}
		}
	}
	if f.git("status", "--porcelain") != "" {
		t.Errorf("status after cherry-pick: %q", f.git("status", "--porcelain"))
	}
}

func TestGitCherryPickConflictContinueAbort(t *testing.T) {
	f := branchFixture(t, map[string]string{"a.txt": "one\ntwo\nthree\n"},
		map[string]string{"b.txt": "b\n"}, map[string]string{"a.txt": "one\nTWO master\nthree\n"})
	f.git("checkout", "-q", "topic")
	f.commitFiles("topic edits two", map[string]string{"a.txt": "one\nTWO topic\nthree\n"})
	f.commitFiles("topic adds c", map[string]string{"c.txt": "c\n"})
	f.git("checkout", "-q", "master")
	start := f.git("rev-parse", "HEAD")
	revs := []string{"topic~2", "topic~1", "topic"}
	clone := f.cloneRun("cherry-pick", f.git("rev-parse", "topic~2"), f.git("rev-parse", "topic~1"), f.git("rev-parse", "topic"))
	var out mergecmd.Out
	f.ok("git_cherry_pick", map[string]any{"repo_path": f.dir, "revisions": revs}, &out)
	if out.Result != mergecmd.ResultConflicts || len(out.Picked) != 1 || len(out.Remaining) != 1 {
		t.Fatalf("%+v, want one pick made, a conflict and one remaining", out)
	}
	want, _ := os.ReadFile(filepath.Join(clone, "a.txt"))
	if got := f.read("a.txt"); got != string(want) {
		t.Errorf("a.txt:\n%s\ngit cherry-pick leaves:\n%s", got, want)
	}
	if got, w := f.git("status", "--porcelain"), gitIn(clone, "status", "--porcelain"); got != w {
		t.Errorf("status %q, git %q", got, w)
	}
	if got := f.git("rev-parse", "CHERRY_PICK_HEAD"); got != f.git("rev-parse", "topic~1") {
		t.Errorf("CHERRY_PICK_HEAD %s", got)
	}
	f.fails("git_cherry_pick", map[string]any{"repo_path": f.dir, "action": "continue"}, "unmerged")
	f.ok("git_cherry_pick", map[string]any{"repo_path": f.dir, "action": "abort"}, &out)
	if f.git("rev-parse", "HEAD") != start || f.git("status", "--porcelain") != "" {
		t.Fatalf("abort: HEAD %s (want %s), status %q", f.git("rev-parse", "HEAD"), start, f.git("status", "--porcelain"))
	}

	f.ok("git_cherry_pick", map[string]any{"repo_path": f.dir, "revisions": revs}, &out)
	f.write(map[string]string{"a.txt": "one\nTWO both\nthree\n"})
	f.ok("git_add", map[string]any{"repo_path": f.dir, "files": []string{"a.txt"}}, nil)
	f.ok("git_cherry_pick", map[string]any{"repo_path": f.dir, "action": "continue"}, &out)
	if out.Result != mergecmd.ResultMerged || f.git("log", "--format=%s", "-3") != "topic adds c\ntopic edits two\ntopic work" {
		t.Errorf("%+v, log %q", out, f.git("log", "--format=%s", "-3"))
	}
	if f.read("a.txt") != "one\nTWO both\nthree\n" || f.read("c.txt") != "c\n" || f.git("status", "--porcelain") != "" {
		t.Errorf("after continue: status %q", f.git("status", "--porcelain"))
	}
	if _, err := os.Stat(filepath.Join(f.dir, ".git", "sequencer")); err == nil {
		t.Error("sequencer left behind")
	}
}

func TestGitRevertMatchesGit(t *testing.T) {
	f := newWriteFixture(t, map[string]string{"a.txt": "1\n2\n3\n4\n5\n6\n"})
	f.commitFiles("change two", map[string]string{"a.txt": "1\nTWO\n3\n4\n5\n6\n"})
	f.commitFiles("change five", map[string]string{"a.txt": "1\nTWO\n3\n4\nFIVE\n6\n"})
	target := f.git("rev-parse", "HEAD~1")
	clone := f.cloneRun("revert", "--no-edit", target)
	var out mergecmd.Out
	f.ok("git_revert", map[string]any{"repo_path": f.dir, "revisions": []string{"HEAD~1"}}, &out)
	if out.Result != mergecmd.ResultMerged {
		t.Fatalf("%+v", out)
	}
	for _, format := range []string{"%T", "%B"} {
		if got, want := f.git("log", "-1", "--format="+format), gitIn(clone, "log", "-1", "--format="+format); got != want {
			t.Errorf("%s: %q, git revert gives %q", format, got, want)
		}
	}
	f.ok("git_revert", map[string]any{"repo_path": f.dir, "revisions": []string{"HEAD~1"}, "no_commit": true}, &out)
	if f.git("status", "--porcelain") != "M  a.txt" {
		t.Errorf("no_commit: status %q, want the change staged", f.git("status", "--porcelain"))
	}
}
