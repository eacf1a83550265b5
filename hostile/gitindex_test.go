package hostile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// craftedRepo is a repository under root/repo with a.txt on master and
// other (a commit that adds b.txt on master is HEAD; other is the first
// commit), next to root/outside, which no call may write.
type craftedRepo struct {
	root, repo, gitDir, outside string
	aBlob, bBlob                [20]byte
}

func newCraftedRepo(t *testing.T) craftedRepo {
	t.Helper()
	top := tempRoot(t)
	c := craftedRepo{root: filepath.Join(top, "root"), outside: filepath.Join(top, "outside")}
	c.repo = filepath.Join(c.root, "repo")
	c.gitDir = filepath.Join(c.repo, ".git")
	writeFiles(t, c.outside, map[string]string{"keep.txt": "outside\n"})
	first := commitFiles(t, c.repo, map[string]string{"a.txt": "alpha\n"}, "first")
	commitFiles(t, c.repo, map[string]string{"b.txt": "beta\n"}, "second")
	setRef(t, c.gitDir, "refs/heads/other", first)
	c.aBlob = blobName(t, c.repo, "HEAD", "a.txt")
	c.bBlob = blobName(t, c.repo, "HEAD", "b.txt")
	return c
}

// checkOutsideUntouched fails if anything but keep.txt appeared in outside
// or in the parent of root.
func (c craftedRepo) checkOutsideUntouched(t *testing.T) {
	t.Helper()
	entries, err := os.ReadDir(c.outside)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Name() != "keep.txt" {
			t.Errorf("a file appeared outside the root: %s", filepath.Join(c.outside, e.Name()))
		}
	}
	for _, name := range []string{"escape.txt", "secret.txt", "hostname"} {
		for _, dir := range []string{filepath.Dir(c.root), c.root} {
			if exists(t, filepath.Join(dir, name)) {
				t.Errorf("a file appeared outside the worktree: %s", filepath.Join(dir, name))
			}
		}
	}
}

// Issue 11 item 7 and contract R1: an index holding names git would never
// write (absolute, climbing out with .., inside .git, empty or dot
// components) is refused by every tool that loads it, read path and write
// path alike, each within the bound; nothing is written outside the
// worktree; the repository's lock is released, so the next call on the same
// repository answers (the calls run in sequence on one session, write tools
// last).
//
// The absolute name points into the test's own directory rather than at
// /etc/hostname: the suite may run as root, and a broken server must not
// get to clobber a system file.
func TestCraftedIndex(t *testing.T) {
	t.Parallel()
	badNames := []struct{ name, entry string }{
		{"dotdot", "../outside/secret.txt"},
		{"absolute", "ABS/hostname"},
		{"dotgit", ".git/config"},
		{"empty component", "c//d.txt"},
		{"dot component", "./c.txt"},
		{"dotdot component", "c/../../escape.txt"},
	}
	calls := []struct {
		tool string
		args map[string]any
	}{
		{"git_status", map[string]any{}},
		{"git_diff", map[string]any{}},
		{"git_diff", map[string]any{"staged": true}},
		{"git_reset", map[string]any{}},
		{"git_reset", map[string]any{"files": []string{"a.txt"}}},
		{"git_add", map[string]any{"files": []string{"a.txt"}}},
		{"git_commit", map[string]any{"message": "hostile"}},
		{"git_checkout", map[string]any{"branch": "other"}},
	}
	for _, bad := range badNames {
		t.Run(bad.name, func(t *testing.T) {
			t.Parallel()
			c := newCraftedRepo(t)
			entry := strings.Replace(bad.entry, "ABS", c.outside, 1)
			writeIndex(t, c.gitDir,
				indexEntry{name: entry, hash: c.aBlob, size: 6},
				indexEntry{name: "a.txt", hash: c.aBlob, size: 6},
				indexEntry{name: "b.txt", hash: c.bBlob, size: 5})
			index, err := os.ReadFile(filepath.Join(c.gitDir, "index"))
			if err != nil {
				t.Fatal(err)
			}
			s := legacy(t, c.root)
			for _, call := range calls {
				args := map[string]any{"repo_path": c.repo}
				for k, v := range call.args {
					args[k] = v
				}
				if r := s.callTool(call.tool, args); !r.isError {
					t.Errorf("%s %v with index entry %q: %.300s, want an isError result", call.tool, call.args, entry, r.msg.Raw)
				}
			}
			if r := s.callTool("git_status", map[string]any{"repo_path": c.repo}); r.msg.Error != nil {
				t.Errorf("git_status afterwards: %.300s", r.msg.Raw)
			}
			s.ping()
			s.checkPeakRSS(bad.name)
			c.checkOutsideUntouched(t)
			if !exists(t, filepath.Join(c.repo, "b.txt")) {
				t.Error("b.txt was removed from the worktree")
			}
			if after, err := os.ReadFile(filepath.Join(c.gitDir, "index")); err != nil || string(after) != string(index) {
				t.Errorf("the crafted index was rewritten (err %v)", err)
			}
		})
	}
}
