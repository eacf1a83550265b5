package gittools

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/grove-mcp/grove/scope"
)

// writeFixture is a repository inside a root, a client session to a server with every git tool, and the git
// CLI (isolated from the user's configuration) as the oracle.
type writeFixture struct {
	t    *testing.T
	root string // the root directory (real path)
	dir  string // the repository's worktree
	cs   *mcp.ClientSession
}

const (
	testAuthorName     = "Ada Author"
	testAuthorEmail    = "ada@example.com"
	testCommitterName  = "Carl Committer"
	testCommitterEmail = "carl@example.com"
)

// isolateGit points HOME and XDG_CONFIG_HOME at an empty directory and sets the identity variables.
func isolateGit(t *testing.T) string {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_CONFIG_GLOBAL", "unset-below")
	os.Unsetenv("GIT_CONFIG_GLOBAL")
	t.Setenv("GIT_AUTHOR_NAME", testAuthorName)
	t.Setenv("GIT_AUTHOR_EMAIL", testAuthorEmail)
	t.Setenv("GIT_COMMITTER_NAME", testCommitterName)
	t.Setenv("GIT_COMMITTER_EMAIL", testCommitterEmail)
	return home
}

func realTemp(t *testing.T) string {
	t.Helper()
	d, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// newWriteFixture makes a repository at the root with files committed on master (built with go-git) and
// connects a client to a server over in-memory transports.
func newWriteFixture(t *testing.T, files map[string]string) *writeFixture {
	t.Helper()
	isolateGit(t)
	f := &writeFixture{t: t, root: realTemp(t)}
	f.dir = f.root
	repo, err := git.PlainInit(f.dir, false)
	if err != nil {
		t.Fatal(err)
	}
	f.write(files)
	f.goGitCommit(repo, "initial", files)
	f.cs = connectWriteTools(t, f.root)
	return f
}

// connectWriteTools serves every git tool for the given root directories and returns a connected client.
func connectWriteTools(t *testing.T, dirs ...string) *mcp.ClientSession {
	t.Helper()
	return serveTools(t, Options{Scope: scope.Static(scopeOf(t, dirs...))}, nil)
}

// realDir resolves symlinks in a temporary directory's path (roots hold real paths).
func realDir(d string) (string, error) { return filepath.EvalSymlinks(d) }

// writeB is write for benchmarks.
func (f *writeFixture) writeB(b *testing.B, files map[string]string) {
	for name, content := range files {
		p := filepath.Join(f.dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			b.Fatal(err)
		}
	}
}

// write creates or replaces files (slash paths relative to the worktree); "" content deletes.
func (f *writeFixture) write(files map[string]string) {
	f.t.Helper()
	for name, content := range files {
		p := filepath.Join(f.dir, filepath.FromSlash(name))
		if content == "" {
			if err := os.Remove(p); err != nil {
				f.t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			f.t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			f.t.Fatal(err)
		}
	}
}

// goGitCommit stages files (deleting the "" ones) with go-git and commits them on the current branch.
func (f *writeFixture) goGitCommit(repo *git.Repository, msg string, files map[string]string) {
	f.t.Helper()
	w, err := repo.Worktree()
	if err != nil {
		f.t.Fatal(err)
	}
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if files[n] == "" {
			_, err = w.Remove(n)
		} else {
			_, err = w.Add(n)
		}
		if err != nil {
			f.t.Fatal(err)
		}
	}
	sig := &object.Signature{Name: "Setup", Email: "setup@example.com", When: time.Unix(1700000000, 0)}
	if _, err := w.Commit(msg, &git.CommitOptions{Author: sig, Committer: sig}); err != nil {
		f.t.Fatal(err)
	}
}

// git runs the git CLI (the oracle) in the worktree and returns its trimmed output; failure fails the test.
func (f *writeFixture) git(args ...string) string {
	f.t.Helper()
	out, err := f.gitRun(args...)
	if err != nil {
		f.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

func (f *writeFixture) gitRun(args ...string) (string, error) {
	cmd := exec.Command("git", append([]string{"-C", f.dir}, args...)...)
	out, err := cmd.CombinedOutput()
	return strings.TrimRight(string(out), "\n"), err
}

// call invokes a tool; it returns the text and the structured result decoded into out (when non-nil), and
// whether the result is an error.
func (f *writeFixture) call(name string, args map[string]any, out any) (string, bool) {
	f.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := f.cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		f.t.Fatalf("%s: protocol error: %v", name, err)
	}
	var text strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			text.WriteString(tc.Text)
		}
	}
	if out != nil && !res.IsError {
		data, _ := json.Marshal(res.StructuredContent)
		if err := json.Unmarshal(data, out); err != nil {
			f.t.Fatalf("%s: decoding structured content: %v", name, err)
		}
	}
	return text.String(), res.IsError
}

// ok calls a tool that must succeed.
func (f *writeFixture) ok(name string, args map[string]any, out any) string {
	f.t.Helper()
	text, isErr := f.call(name, args, out)
	if isErr {
		f.t.Fatalf("%s %v failed: %s", name, args, text)
	}
	return text
}

// fails calls a tool that must fail with an error containing want.
func (f *writeFixture) fails(name string, args map[string]any, want string) string {
	f.t.Helper()
	text, isErr := f.call(name, args, nil)
	if !isErr {
		f.t.Fatalf("%s %v succeeded, want an error containing %q; got %s", name, args, want, text)
	}
	if !strings.Contains(text, want) {
		f.t.Errorf("%s %v: error %q does not contain %q", name, args, text, want)
	}
	return text
}

// read returns a worktree file's content.
func (f *writeFixture) read(name string) string {
	f.t.Helper()
	data, err := os.ReadFile(filepath.Join(f.dir, filepath.FromSlash(name)))
	if err != nil {
		f.t.Fatal(err)
	}
	return string(data)
}
