package hostile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// evilTree writes, into c's repository, a tree holding one entry named name
// (a blob "pwned", or for a directory entry a tree holding escape.txt and
// config), a commit of it on top of HEAD's tree entries a.txt and b.txt,
// and points refs/heads/evil at it.
func (c craftedRepo) evilTree(t *testing.T, name string, dir bool) {
	t.Helper()
	pwned := writeObject(t, c.gitDir, "blob", []byte("[core]\n\tpwned = true\n"))
	entry := treeEntry{mode: "100644", name: name, hash: pwned}
	if dir {
		sub := writeTree(t, c.gitDir,
			treeEntry{mode: "100644", name: "config", hash: pwned},
			treeEntry{mode: "100644", name: "escape.txt", hash: pwned})
		entry = treeEntry{mode: "40000", name: name, hash: sub}
	}
	entries := []treeEntry{entry,
		{mode: "100644", name: "a.txt", hash: c.aBlob},
		{mode: "100644", name: "b.txt", hash: c.bBlob}}
	tree := writeTree(t, c.gitDir, entries...)
	setRef(t, c.gitDir, "refs/heads/evil", writeCommit(t, c.gitDir, tree, "evil"))
}

// Contract R1, trees: a commit whose tree holds a name git would never
// write (.., ., .git, a slash, an absolute path, an empty name, a backslash
// climbing out) is refused by git_checkout, with nothing written outside
// the worktree or into .git, and by git_show and git_diff, which load it, and
// by git_merge, git_cherry_pick and git_restore, which merge or read it; the
// repository stays usable.
func TestCraftedTrees(t *testing.T) {
	t.Parallel()
	names := []struct {
		label, name string
		dir         bool
	}{
		{"dotdot dir", "..", true},
		{"dot dir", ".", true},
		{"dotgit dir", ".git", true},
		{"dotgit file", ".git", false},
		{"slash dotdot", "../escape.txt", false},
		{"slash", "x/../../escape.txt", false},
		{"absolute", "ABS/escape.txt", false},
		{"empty", "", false},
		{"backslash", `..\escape.txt`, false},
		{"dotgit backslash", `.git\config`, false},
	}
	calls := []struct {
		tool string
		args map[string]any
	}{
		{"git_show", map[string]any{"revision": "evil"}},
		{"git_diff", map[string]any{"target": "master..evil"}},
		{"git_checkout", map[string]any{"branch": "evil"}},
		{"git_merge", map[string]any{"revision": "evil"}},
		{"git_merge", map[string]any{"revision": "evil", "ff": "never"}},
		{"git_cherry_pick", map[string]any{"revisions": []string{"evil"}}},
		{"git_restore", map[string]any{"paths": []string{"a.txt"}, "source": "evil"}},
	}
	for _, n := range names {
		t.Run(n.label, func(t *testing.T) {
			t.Parallel()
			c := newCraftedRepo(t)
			c.evilTree(t, strings.Replace(n.name, "ABS", c.outside, 1), n.dir)
			config, err := os.ReadFile(filepath.Join(c.gitDir, "config"))
			if err != nil {
				t.Fatal(err)
			}
			head, err := os.ReadFile(filepath.Join(c.gitDir, "HEAD"))
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
					t.Errorf("%s of a tree entry %q: %.300s, want an isError result", call.tool, n.name, r.msg.Raw)
				}
			}
			if r := s.callTool("git_status", map[string]any{"repo_path": c.repo}); r.msg.Error != nil || r.isError {
				t.Errorf("git_status afterwards: %.300s", r.msg.Raw)
			}
			s.ping()
			s.checkPeakRSS(n.label)
			c.checkOutsideUntouched(t)
			if after, _ := os.ReadFile(filepath.Join(c.gitDir, "config")); string(after) != string(config) {
				t.Errorf(".git/config was rewritten:\n%s", after)
			}
			if after, _ := os.ReadFile(filepath.Join(c.gitDir, "HEAD")); string(after) != string(head) {
				t.Errorf("HEAD moved to %q", after)
			}
			for _, p := range []string{"escape.txt", `..\escape.txt`, `.git\config`, "config"} {
				if exists(t, filepath.Join(c.repo, p)) {
					t.Errorf("checkout wrote %s", p)
				}
			}
		})
	}
}
