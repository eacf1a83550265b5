package hostile

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// toolCase is one tool call and what it must come to.
type toolCase struct {
	tool string
	args map[string]any
}

func (c toolCase) String() string {
	var parts []string
	for k, v := range c.args {
		if k == "repo_path" {
			continue
		}
		s := fmt.Sprint(v)
		parts = append(parts, k+"="+s[:min(len(s), 40)])
	}
	slices.Sort(parts)
	return c.tool + " " + strings.Join(parts, " ")
}

// Issue 11 item 12 and contract R5: a path starting with "~" is refused with
// "paths are not shell-expanded", and nothing named "~" is created.
func TestTildePaths(t *testing.T) {
	t.Parallel()
	root := gitRoot(t)
	s := legacy(t, root)
	var cases []toolCase
	for _, p := range []string{"~/newrepo", "~", "~root/newrepo", "~nobody", "~/"} {
		cases = append(cases,
			toolCase{"git_init", map[string]any{"repo_path": p}},
			toolCase{"git_status", map[string]any{"repo_path": p}},
			toolCase{"create_directory", map[string]any{"path": p + "/d"}},
			toolCase{"write_file", map[string]any{"path": p + "/f.txt", "content": "x"}},
			toolCase{"read_file", map[string]any{"path": p + "/.bashrc"}},
			toolCase{"list_directory", map[string]any{"path": p}},
		)
	}
	cases = append(cases,
		toolCase{"move_file", map[string]any{"source": "a.txt", "destination": "~/moved.txt"}},
		toolCase{"git_add", map[string]any{"files": []string{"~/a.txt"}}},
		toolCase{"git_restore", map[string]any{"paths": []string{"~/a.txt"}}},
		toolCase{"git_stash", map[string]any{"paths": []string{"~/a.txt"}}},
		toolCase{"git_merge", map[string]any{"repo_path": "~/repo", "revision": "HEAD"}},
	)
	for _, c := range cases {
		r := s.callTool(c.tool, c.args)
		if !r.isError || !strings.Contains(r.text, "not shell-expanded") {
			t.Errorf("%v: %.300s, want an isError result saying paths are not shell-expanded", c, r.msg.Raw)
		}
	}
	s.ping()
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "~") {
			t.Errorf("%s was created in the root", e.Name())
		}
	}
	if !exists(t, filepath.Join(root, "a.txt")) {
		t.Error("a.txt was moved")
	}
}

// Issue 11 item 13 and contract R6: an enum argument outside its enum is
// refused (isError or -32602); its values are accepted.
func TestEnumArguments(t *testing.T) {
	t.Parallel()
	s := legacy(t, gitRoot(t))
	for _, v := range []string{"", "LOCAL", "Local", "locals", " local", "local ", "all\x00", "none", "remotes", "*"} {
		if r := s.callTool("git_branch", map[string]any{"branch_type": v}); !r.refused() {
			t.Errorf("git_branch branch_type %q: %.300s, want it refused", v, r.msg.Raw)
		}
	}
	for _, v := range []string{"local", "remote", "all"} {
		if r := s.callTool("git_branch", map[string]any{"branch_type": v}); r.refused() {
			t.Errorf("git_branch branch_type %q: %.300s, want it accepted", v, r.msg.Raw)
		}
	}
	for _, v := range []string{"maybe", "yes", "1", "TRUE "} {
		m := s.call("prompts/get", map[string]any{"name": "review_changes", "arguments": map[string]any{"staged": v}})
		if m.Error == nil || m.Error.Code != -32602 {
			t.Errorf("review_changes staged %q: %.300s, want -32602", v, m.Raw)
		}
	}
	s.ping()
}

// Same class as item 12: revisions, branch names and targets that look like
// git options or climb out of refs/ are refused, and write nothing.
func TestOptionLikeAndInvalidRefs(t *testing.T) {
	t.Parallel()
	top := tempRoot(t)
	root, outside := filepath.Join(top, "root"), filepath.Join(top, "outside")
	commitFiles(t, root, map[string]string{"a.txt": "alpha\n"}, "first")
	writeFiles(t, outside, map[string]string{"keep.txt": "x"})
	gitDir := filepath.Join(root, ".git")
	head, err := os.ReadFile(filepath.Join(gitDir, "HEAD"))
	if err != nil {
		t.Fatal(err)
	}
	s := legacy(t, root)
	out := filepath.Join(outside, "out")
	var cases []toolCase
	for _, rev := range []string{"--output=" + out, "-p", "--help", "-", "--all", "-L1,1:a.txt", "HEAD --output=" + out, "@{-1}", "HEAD~99999999999999999999", "HEAD^{/\x00}", ":/\x00"} {
		cases = append(cases,
			toolCase{"git_show", map[string]any{"revision": rev}},
			toolCase{"git_log", map[string]any{"revision": rev}},
			toolCase{"git_diff", map[string]any{"target": rev}},
			toolCase{"git_blame", map[string]any{"path": "a.txt", "revision": rev}},
		)
	}
	for _, name := range []string{
		"../../evil", "../config", "a..b", "-x", "--orphan", "a.lock", "a b", "a~1", "a^", "a:b", "a?", "a*", "a[", `a\b`,
		"@", "a@{b", "/a", "a/", "a//b", "a/.b", ".a", "a.", "a\x00b", "a\x7fb", "a\tb", "refs/../../evil", outside + "/evil",
	} {
		cases = append(cases,
			toolCase{"git_create_branch", map[string]any{"branch_name": name}},
			toolCase{"git_tag", map[string]any{"name": name}},
		)
	}
	cases = append(cases, toolCase{"git_create_branch", map[string]any{"branch_name": "HEAD"}},
		toolCase{"git_create_branch", map[string]any{"branch_name": ""}})
	for _, name := range []string{"../../HEAD", "../config", "-b", "--orphan", "master/../../..", "refs/heads/../../config"} {
		cases = append(cases,
			toolCase{"git_checkout", map[string]any{"branch": name}},
			toolCase{"git_create_branch", map[string]any{"branch_name": "ok-name", "base_branch": name}},
		)
	}
	cases = append(cases, toolCase{"git_checkout", map[string]any{"branch": ""}}, toolCase{"git_checkout", map[string]any{"branch": "HEAD"}})
	for _, c := range cases {
		if r := s.callTool(c.tool, c.args); !r.refused() {
			t.Errorf("%q: %.300s, want it refused", c.String(), r.msg.Raw)
		}
	}
	s.ping()
	if after, _ := os.ReadFile(filepath.Join(gitDir, "HEAD")); string(after) != string(head) {
		t.Errorf("HEAD changed to %q", after)
	}
	for _, dir := range []string{filepath.Join(gitDir, "refs", "heads"), filepath.Join(gitDir, "refs", "tags"), outside, root, gitDir} {
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			switch name := e.Name(); {
			case dir == outside && name != "keep.txt",
				dir != outside && dir != root && dir != gitDir && name != "master",
				strings.Contains(name, "evil") || name == "out":
				t.Errorf("%s was created", filepath.Join(dir, name))
			}
		}
	}
}
