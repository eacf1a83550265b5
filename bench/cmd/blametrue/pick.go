package main

import (
	"bytes"
	"cmp"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"
)

// busiest returns the n files of HEAD that the most non-merge commits touched (`git log --no-merges
// --name-only`, paths as they were named then, counted if HEAD has them), among those of at most maxLines
// lines; ties by path.
func busiest(dir string, n, maxLines int) ([]string, error) {
	tree, err := runGit(dir, "ls-tree", "-r", "--name-only", "-z", "HEAD")
	if err != nil {
		return nil, err
	}
	live := map[string]bool{}
	for _, p := range strings.Split(string(tree), "\x00") {
		live[p] = p != ""
	}
	names, err := runGit(dir, "log", "--no-merges", "--format=", "--name-only", "-z", "HEAD")
	if err != nil {
		return nil, err
	}
	count := map[string]int{}
	for _, p := range strings.FieldsFunc(string(names), func(r rune) bool { return r == 0 || r == '\n' }) {
		if live[p] {
			count[p]++
		}
	}
	paths := make([]string, 0, len(count))
	for p := range count {
		paths = append(paths, p)
	}
	slices.SortFunc(paths, func(a, b string) int { return cmp.Or(count[b]-count[a], strings.Compare(a, b)) })
	var out []string
	for _, p := range paths {
		if len(out) == n {
			break
		}
		data, err := runGit(dir, "cat-file", "blob", "HEAD:"+p)
		if err != nil {
			return nil, err
		}
		if lines := bytes.Count(data, []byte("\n")); lines <= maxLines && lines > 0 && !bytes.Contains(data[:min(len(data), 8000)], []byte{0}) {
			out = append(out, p)
		}
	}
	return out, nil
}

// gitHome is an empty HOME for the git CLI (set by main).
var gitHome string

// lastGitCPU is the CPU time (user and system) of the last git run.
var lastGitCPU time.Duration

// runGit runs the git CLI in dir, isolated from user and system configuration, and returns its stdout.
func runGit(dir string, args ...string) ([]byte, error) {
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + gitHome, "XDG_CONFIG_HOME=" + gitHome,
		"GIT_CONFIG_NOSYSTEM=1", "GIT_OPTIONAL_LOCKS=0", "LANG=C", "LC_ALL=C", "GIT_PAGER=cat", "TZ=UTC"}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if cmd.ProcessState != nil {
		lastGitCPU = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	if err != nil {
		return out, fmt.Errorf("git %s: %w: %.300s", strings.Join(args, " "), err, stderr.String())
	}
	return out, nil
}
