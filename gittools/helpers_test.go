package gittools

import (
	"context"
	"os/exec"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/grove-mcp/grove/gittools/internal/gittest"
	"github.com/grove-mcp/grove/roots"
	"github.com/grove-mcp/grove/scope"
)

// gitEnv isolates the git CLI (used only as an oracle and to build fixtures) from the machine's config.
func gitEnv(home string) []string { return gittest.Env(home) }

// fixture is a [gittest.Fixture] with this package's lower-case names; dir,
// home and t are copies of its fields.
type fixture struct {
	*gittest.Fixture
	t    testing.TB
	dir  string // real path of the worktree
	home string
}

func newFixture(t testing.TB) *fixture {
	t.Helper()
	g := gittest.New(t)
	return &fixture{Fixture: g, t: t, dir: g.Dir, home: g.Home}
}

// git runs the git CLI in the worktree and returns its stdout.
func (f *fixture) git(args ...string) string {
	f.t.Helper()
	return f.GitIn(f.dir, args...)
}

func (f *fixture) gitIn(dir string, args ...string) string {
	f.t.Helper()
	return f.GitIn(dir, args...)
}

// write creates or replaces files (slash paths relative to the worktree).
func (f *fixture) write(files ...string) {
	f.t.Helper()
	f.Write(files...)
}

// commit stages everything and commits with msg at the next tick.
func (f *fixture) commit(msg string) string {
	f.t.Helper()
	return f.Commit(msg)
}

// scopeOf returns a scope whose roots are dirs.
func scopeOf(t testing.TB, dirs ...string) *roots.Scope {
	t.Helper()
	return gittest.Scope(t, dirs...)
}

// repos returns a Repos whose only root is the fixture's worktree.
func (f *fixture) repos() (*Repos, *roots.Scope) {
	f.t.Helper()
	sc := scopeOf(f.t, f.dir)
	r := New(Options{Scope: scope.Static(sc)})
	f.t.Cleanup(func() { r.Close() })
	return r, sc
}

func testCtx(t testing.TB) context.Context { return gittest.Ctx(t) }

// gitCmd prepares a git command in the worktree with the isolated environment.
func gitCmd(f *fixture, args ...string) *exec.Cmd { return f.Cmd(args...) }

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
	return serveTools(t, Options{Scope: scope.Static(scopeOf(t, dir)), ReadOnly: true}, opts)
}

// serveTools registers the tools of a Repos built with opts on an in-memory
// MCP transport and returns a client session (clientOpts may be nil).
// Everything is closed when the test ends.
func serveTools(t testing.TB, opts Options, clientOpts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	r := New(opts)
	t.Cleanup(func() { r.Close() })
	srv := mcp.NewServer(&mcp.Implementation{Name: "grove-test"}, nil)
	r.Register(srv)
	ct, st := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(testCtx(t), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "client"}, clientOpts).Connect(testCtx(t), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}
