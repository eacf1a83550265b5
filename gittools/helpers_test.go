package gittools

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/grove-mcp/grove/roots"
	"github.com/grove-mcp/grove/scope"
)

// gitEnv isolates the git CLI (used only as an oracle and to build fixtures) from the machine's config.
func gitEnv(home string) []string {
	return append(os.Environ(),
		"HOME="+home, "XDG_CONFIG_HOME="+home, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+filepath.Join(home, "gitconfig"),
		"GIT_AUTHOR_NAME=Ann Author", "GIT_AUTHOR_EMAIL=ann@example.com",
		"GIT_COMMITTER_NAME=Cid Committer", "GIT_COMMITTER_EMAIL=cid@example.com",
		"LC_ALL=C", "TZ=UTC", "GIT_PAGER=cat",
	)
}

// fixture is a repository built in a temp dir, with the git CLI for building and checking.
type fixture struct {
	t    testing.TB
	dir  string // real path of the worktree
	home string
	tick int // advances commit dates so the order is deterministic
}

func newFixture(t testing.TB) *fixture {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git CLI not available for the oracle")
	}
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{t: t, dir: filepath.Join(base, "repo"), home: filepath.Join(base, "home")}
	for _, d := range []string{f.dir, f.home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	f.git("init", "-q", "-b", "main")
	return f
}

// git runs the git CLI in the worktree and returns its stdout.
func (f *fixture) git(args ...string) string {
	f.t.Helper()
	return f.gitIn(f.dir, args...)
}

func (f *fixture) gitIn(dir string, args ...string) string {
	f.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	date := time.Date(2024, 1, 1, 12, 0, 0, 0, time.UTC).Add(time.Duration(f.tick) * time.Hour).Format(time.RFC3339)
	cmd.Env = append(gitEnv(f.home), "GIT_AUTHOR_DATE="+date, "GIT_COMMITTER_DATE="+date)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		f.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return string(out)
}

// write creates or replaces files (slash paths relative to the worktree).
func (f *fixture) write(files ...string) {
	f.t.Helper()
	for i := 0; i+1 < len(files); i += 2 {
		p := filepath.Join(f.dir, filepath.FromSlash(files[i]))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			f.t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(files[i+1]), 0o644); err != nil {
			f.t.Fatal(err)
		}
	}
}

// commit stages everything and commits with msg at the next tick.
func (f *fixture) commit(msg string) string {
	f.t.Helper()
	f.tick++
	f.git("add", "-A")
	f.git("commit", "-q", "--allow-empty", "-m", msg)
	return strings.TrimSpace(f.git("rev-parse", "HEAD"))
}

// scope returns a scope whose only root is dir (default: the fixture's parent, so the repo is inside it).
func scopeOf(t testing.TB, dirs ...string) *roots.Scope {
	t.Helper()
	set, err := roots.NewSet(dirs, nil)
	if err != nil {
		t.Fatal(err)
	}
	return set.Scope()
}

// repos returns a Repos whose only root is the fixture's worktree.
func (f *fixture) repos() (*Repos, *roots.Scope) {
	f.t.Helper()
	sc := scopeOf(f.t, f.dir)
	r := New(Options{Scope: scope.Static(sc)})
	f.t.Cleanup(func() { r.Close() })
	return r, sc
}

func testCtx(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// gitCmd prepares a git command in the worktree with the isolated environment.
func gitCmd(f *fixture, args ...string) *exec.Cmd {
	cmd := exec.Command("git", args...)
	cmd.Dir = f.dir
	cmd.Env = gitEnv(f.home)
	return cmd
}

// resultText is the text content of a tool result.
func resultText(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// connectTools serves the read-only git tools over dir on an in-memory MCP
// transport and returns a client session (opts may be nil). Everything is
// closed when the test ends.
func connectTools(t testing.TB, dir string, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	r := New(Options{Scope: scope.Static(scopeOf(t, dir)), ReadOnly: true})
	t.Cleanup(func() { r.Close() })
	srv := mcp.NewServer(&mcp.Implementation{Name: "grove-test"}, nil)
	r.Register(srv)
	ct, st := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(testCtx(t), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "client"}, opts).Connect(testCtx(t), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}
