// Package gittest owns the test fixture of the git packages: a repository
// in a temp dir, built and checked with the git CLI (tests may run git as an
// oracle; the product never does), under an environment that ignores the
// machine's git config. Only tests import it.
//
//	f := gittest.New(t)
//	f.Write("a.txt", "hello\n")
//	hash := f.Commit("first")
//	sc := gittest.Scope(t, f.Dir)
package gittest

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/grove-mcp/grove/internal/testenv"
	"github.com/grove-mcp/grove/roots"
)

// Env isolates the git CLI from the machine's config: home is its HOME, and
// author, committer, locale and time zone are fixed.
func Env(home string) []string {
	return append(os.Environ(),
		"HOME="+home, "XDG_CONFIG_HOME="+home, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+filepath.Join(home, "gitconfig"),
		"GIT_AUTHOR_NAME=Ann Author", "GIT_AUTHOR_EMAIL=ann@example.com",
		"GIT_COMMITTER_NAME=Cid Committer", "GIT_COMMITTER_EMAIL=cid@example.com",
		"LC_ALL=C", "TZ=UTC", "GIT_PAGER=cat",
	)
}

// Fixture is a repository built in a temp dir, with the git CLI for
// building and checking.
type Fixture struct {
	T    testing.TB
	Dir  string // real path of the worktree
	Home string // HOME of the git CLI
	Tick int    // advances commit dates so the order is deterministic
}

// New makes an empty repository on branch main. Without the git CLI it fails
// the test: a package that uses New checks for git once in its TestMain
// (testenv.NeedGit), so this only catches one that forgot.
func New(t testing.TB) *Fixture {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal(testenv.GitMissing)
	}
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	f := &Fixture{T: t, Dir: filepath.Join(base, "repo"), Home: filepath.Join(base, "home")}
	for _, d := range []string{f.Dir, f.Home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	f.Git("init", "-q", "-b", "main")
	return f
}

// Git runs the git CLI in the worktree and returns its stdout.
func (f *Fixture) Git(args ...string) string {
	f.T.Helper()
	return f.GitIn(f.Dir, args...)
}

// GitIn runs the git CLI in dir, dated at the fixture's tick, and returns
// its stdout. A failure fails the test.
func (f *Fixture) GitIn(dir string, args ...string) string {
	f.T.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	date := time.Date(2024, 1, 1, 12, 0, 0, 0, time.UTC).Add(time.Duration(f.Tick) * time.Hour).Format(time.RFC3339)
	cmd.Env = append(Env(f.Home), "GIT_AUTHOR_DATE="+date, "GIT_COMMITTER_DATE="+date)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		f.T.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return string(out)
}

// Cmd prepares a git command in the worktree with the isolated environment.
func (f *Fixture) Cmd(args ...string) *exec.Cmd {
	cmd := exec.Command("git", args...)
	cmd.Dir = f.Dir
	cmd.Env = Env(f.Home)
	return cmd
}

// Write creates or replaces files, given as pairs of a slash path relative
// to the worktree and its content.
func (f *Fixture) Write(files ...string) {
	f.T.Helper()
	for i := 0; i+1 < len(files); i += 2 {
		p := filepath.Join(f.Dir, filepath.FromSlash(files[i]))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			f.T.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(files[i+1]), 0o644); err != nil {
			f.T.Fatal(err)
		}
	}
}

// Commit stages everything and commits with msg at the next tick, and
// returns the commit's hash.
func (f *Fixture) Commit(msg string) string {
	f.T.Helper()
	f.Tick++
	f.Git("add", "-A")
	f.Git("commit", "-q", "--allow-empty", "-m", msg)
	return strings.TrimSpace(f.Git("rev-parse", "HEAD"))
}

// Scope returns a scope whose roots are dirs.
func Scope(t testing.TB, dirs ...string) *roots.Scope {
	t.Helper()
	set, err := roots.NewSet(dirs, nil)
	if err != nil {
		t.Fatal(err)
	}
	return set.Scope()
}

// Ctx is a context that ends with the test, or after a minute.
func Ctx(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}
