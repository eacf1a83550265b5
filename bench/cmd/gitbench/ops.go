package main

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// op is one operation done both ways: a grove tool call and the git command doing the same work.
type op struct {
	name        string
	target      float64 // grove warm / git at most; 0: no target (reported for information)
	firstTarget float64 // grove's first call / git at most; 0: none
	tool        string
	args        map[string]any
	git         []string
	modify      []string // tracked files to change before the operation (and restore after)
	check       func(res *mcp.CallToolResult, gitOut []byte) (string, bool)
	// paths, when set, is a git command (run once, untimed) listing the changed paths without rename
	// detection; the set must equal grove's files (a rename counting as both its paths).
	paths []string
}

// operations lists what is measured on a repository described by m.
func operations(m meta) []op {
	switch m.Kind {
	case "log20k", "log20k-bloom", "status50k":
		return issueOperations(m)
	}
	diff1000 := m.DiffA + ".." + m.DiffB
	logFormat := "--format=%H%x09%P%x09%an%x09%ae%x09%aI%x09%s"
	return []op{
		{name: "status", target: 1.0, tool: "git_status", git: []string{"status", "--porcelain"}, check: checkStatus},
		{name: "status, 10 modified", target: 1.0, tool: "git_status", git: []string{"status", "--porcelain"},
			modify: m.Modify, check: checkStatus},
		{name: "diff (worktree), 10 modified", tool: "git_diff", git: []string{"diff"}, modify: m.Modify, check: checkDiff,
			paths: []string{"diff", "--no-renames", "--name-only"}},
		{name: "log -50", target: 0.5, tool: "git_log", args: map[string]any{"max_count": 50},
			git: []string{"log", "-50", logFormat}, check: checkLog},
		{name: "log -50 -- " + m.LongPath, target: 1.5, tool: "git_log", args: map[string]any{"max_count": 50, "path": m.LongPath},
			git: []string{"log", "-50", logFormat, "--", m.LongPath}, check: checkLog},
		{name: "log -50 -- " + m.Modify[0] + " (rarely changed: whole-history scan)", tool: "git_log",
			args: map[string]any{"max_count": 50, "path": m.Modify[0]},
			git:  []string{"log", "-50", logFormat, "--", m.Modify[0]}, check: checkLog},
		{name: "diff HEAD~1 HEAD", target: 1.5, tool: "git_diff", args: map[string]any{"target": "HEAD~1..HEAD"},
			git: []string{"diff", "HEAD~1", "HEAD"}, check: checkDiff, paths: []string{"diff", "--no-renames", "--name-only", "HEAD~1", "HEAD"}},
		{name: "show HEAD", target: 1.5, tool: "git_show", args: map[string]any{"revision": "HEAD"},
			git: []string{"show", "HEAD"}, check: checkShow, paths: []string{"show", "--no-renames", "--name-only", "--format=", "HEAD"}},
		{name: fmt.Sprintf("diff %s (%d files)", diff1000, m.DiffFiles), target: 2.0, tool: "git_diff",
			args: map[string]any{"target": diff1000}, git: []string{"diff", m.DiffA, m.DiffB}, check: checkDiff,
			paths: []string{"diff", "--no-renames", "--name-only", m.DiffA, m.DiffB}},
		{name: "diff --numstat " + diff1000 + " (stat_only)", target: 2.0, tool: "git_diff",
			args: map[string]any{"target": diff1000, "stat_only": true}, git: []string{"diff", "--numstat", m.DiffA, m.DiffB},
			check: checkNumstat, paths: []string{"diff", "--no-renames", "--name-only", m.DiffA, m.DiffB}},
	}
}

// withRepo returns o's tool arguments plus repo_path.
func (o op) withRepo(dir string) map[string]any {
	args := map[string]any{"repo_path": dir}
	for k, v := range o.args {
		args[k] = v
	}
	return args
}

func lines(b []byte) []string {
	s := strings.TrimRight(string(b), "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

func checkStatus(res *mcp.CallToolResult, gitOut []byte) (string, bool) {
	var out struct {
		Entries []struct{ Path string }
		Total   int
	}
	if err := structured(res, &out); err != nil {
		return err.Error(), false
	}
	n := len(lines(gitOut))
	return fmt.Sprintf("entries %d / %d", out.Total, n), out.Total == n
}

func checkLog(res *mcp.CallToolResult, gitOut []byte) (string, bool) {
	var out struct{ Commits []struct{ Hash string } }
	if err := structured(res, &out); err != nil {
		return err.Error(), false
	}
	want := lines(gitOut)
	same := len(want) == len(out.Commits)
	for i := 0; same && i < len(want); i++ {
		same = strings.HasPrefix(want[i], out.Commits[i].Hash+"\t")
	}
	desc := fmt.Sprintf("commits %d / %d", len(out.Commits), len(want))
	if same {
		return desc + ", same hashes in order", true
	}
	return desc + ", hashes differ", false
}

type diffOut struct {
	Files []struct {
		Path    string
		OldPath string `json:"old_path"`
		Status  string
		Omitted bool
	}
	Patch     string
	Truncated bool
}

// compareDiff compares grove's files and patch with git's patch. git detects renames (one entry); grove
// may list a rename as a deletion plus an addition, which counts as agreeing.
func compareDiff(out diffOut, gitOut []byte) (string, bool) {
	gitFiles := bytes.Count(gitOut, []byte("\ndiff --git ")) + bytes.Count(gitOut[:min(len(gitOut), 11)], []byte("diff --git "))
	renames := bytes.Count(gitOut, []byte("\nrename from "))
	patchLines := strings.Count(out.Patch, "\n")
	desc := fmt.Sprintf("files %d / %d", len(out.Files), gitFiles)
	if renames > 0 {
		desc += fmt.Sprintf(" (git: %d renames)", renames)
	}
	desc += fmt.Sprintf(", patch lines %d / %d", patchLines, bytes.Count(gitOut, []byte("\n")))
	if out.Truncated {
		diffed := 0
		for _, f := range out.Files {
			if !f.Omitted {
				diffed++
			}
		}
		desc += fmt.Sprintf(" (grove's patch capped: %d files diffed, %d omitted)", diffed, len(out.Files)-diffed)
	}
	// grove pairs only identical-content renames: a rename with edits is a deletion plus an addition.
	ok := len(out.Files) >= gitFiles && len(out.Files) <= gitFiles+renames
	return desc, ok
}

func checkDiff(res *mcp.CallToolResult, gitOut []byte) (string, bool) {
	var out diffOut
	if err := structured(res, &out); err != nil {
		return err.Error(), false
	}
	return compareDiff(out, gitOut)
}

func checkShow(res *mcp.CallToolResult, gitOut []byte) (string, bool) {
	var out struct {
		Commit struct{ Hash string }
		diffOut
	}
	if err := structured(res, &out); err != nil {
		return err.Error(), false
	}
	desc, ok := compareDiff(out.diffOut, gitOut)
	if !bytes.HasPrefix(gitOut, []byte("commit "+out.Commit.Hash)) {
		return desc + ", commit differs", false
	}
	return desc, ok
}

func checkNumstat(res *mcp.CallToolResult, gitOut []byte) (string, bool) {
	var out diffOut
	if err := structured(res, &out); err != nil {
		return err.Error(), false
	}
	n := len(lines(gitOut))
	renames := bytes.Count(gitOut, []byte(" => "))
	desc := fmt.Sprintf("files %d / %d", len(out.Files), n)
	if renames > 0 {
		desc += fmt.Sprintf(" (git: %d renames)", renames)
	}
	return desc, len(out.Files) >= n && len(out.Files) <= n+renames
}

// samePaths compares the paths of grove's files (both sides of a rename) with git's --name-only listing.
func samePaths(res *mcp.CallToolResult, gitOut []byte) (string, bool) {
	var out diffOut
	if err := structured(res, &out); err != nil {
		return err.Error(), false
	}
	have := map[string]bool{}
	for _, f := range out.Files {
		have[f.Path] = true
		if f.OldPath != "" {
			have[f.OldPath] = true
		}
	}
	want := lines(gitOut)
	missing := 0
	for _, p := range want {
		if !have[p] {
			missing++
		}
	}
	if missing == 0 && len(have) == len(want) {
		return fmt.Sprintf("same %d paths", len(want)), true
	}
	return fmt.Sprintf("paths differ: %d of git's %d missing, grove has %d", missing, len(want), len(have)), false
}

// issueOperations are the rows of issue 13's table: a path-limited log of a path changed ~12 times in 20,000
// commits (warm at most git's time, first call at most 1.5×), and a clean status at most 0.2× git's.
func issueOperations(m meta) []op {
	logFormat := "--format=%H%x09%P%x09%an%x09%ae%x09%aI%x09%s"
	status := op{name: fmt.Sprintf("status, clean, %d files", m.Files), target: 0.2, tool: "git_status",
		git: []string{"status", "--porcelain"}, check: checkStatus}
	if m.Kind == "status50k" {
		return []op{status}
	}
	logPath := op{name: fmt.Sprintf("log -50 -- %s (changed by %d of %d commits)", m.LongPath, m.LongHits, m.Commits),
		target: 1.0, firstTarget: 1.5, tool: "git_log", args: map[string]any{"max_count": 50, "path": m.LongPath},
		git: []string{"log", "-50", logFormat, "--", m.LongPath}, check: checkLog}
	if m.Kind == "log20k-bloom" {
		logPath.name += ", Bloom filters"
		return []op{logPath}
	}
	return []op{logPath, status}
}
