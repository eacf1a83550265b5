package gen

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func runGit(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	home := t.TempDir()
	cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+home, "GIT_CONFIG_NOSYSTEM=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

func TestRepoIsValid(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git CLI")
	}
	dir := filepath.Join(t.TempDir(), "r")
	info, err := Repo(dir, Options{Files: 120, FilesPerDir: 10, Commits: 40, MergeEvery: 7})
	if err != nil {
		t.Fatal(err)
	}
	runGit(t, dir, "fsck", "--strict")
	if st := runGit(t, dir, "status", "--porcelain"); st != "" {
		t.Errorf("fresh checkout not clean:\n%s", st)
	}
	if got := strings.TrimSpace(runGit(t, dir, "rev-parse", "HEAD")); got != info.Head.String() {
		t.Errorf("HEAD = %s, want %s", got, info.Head)
	}
	if n := strings.Count(runGit(t, dir, "log", "--format=%H", "--", info.HotPath), "\n"); n < 4 {
		t.Errorf("hot path changed by %d commits, want at least 4", n)
	}
	if n := strings.Count(runGit(t, dir, "log", "--format=%H", "--", info.RarePath), "\n"); n != 1 {
		t.Errorf("rare path changed by %d commits, want 1", n)
	}
	if n := strings.Count(runGit(t, dir, "ls-files"), "\n"); n != 120 {
		t.Errorf("%d tracked files, want 120", n)
	}
}
