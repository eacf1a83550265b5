package prompts

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/grove-mcp/grove/roots"
)

var _ Git = (*fakeGit)(nil)

// fakeGit answers like gittools for the repositories it knows: repo_path values in repos ("" is the root's).
type fakeGit struct {
	repos    map[string]bool
	diffs    map[string]string // by diffKey
	commits  map[string][2]string
	logs     map[string]string // by path argument
	subjects []string
	revs     []string

	mu    sync.Mutex // guards calls
	calls []string
}

func diffKey(repoPath string, staged bool, base string) string {
	return fmt.Sprintf("%s staged=%v base=%s", repoPath, staged, base)
}

func (g *fakeGit) record(format string, args ...any) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.calls = append(g.calls, fmt.Sprintf(format, args...))
}

func (g *fakeGit) open(repoPath string) error {
	if !g.repos[repoPath] {
		return fmt.Errorf("no git repository found at %q: %w", repoPath, roots.ErrNotFound)
	}
	return nil
}

func (g *fakeGit) Diff(ctx context.Context, sc *roots.Scope, repoPath string, staged bool, base string) (string, error) {
	g.record("Diff(%q, %v, %q)", repoPath, staged, base)
	if err := g.open(repoPath); err != nil {
		return "", err
	}
	if base != "" && !strings.HasPrefix(base, "main") {
		return "", fmt.Errorf("unknown revision %q", base)
	}
	return g.diffs[diffKey(repoPath, staged, base)], nil
}

func (g *fakeGit) Show(ctx context.Context, sc *roots.Scope, repoPath, revision string) (string, string, error) {
	g.record("Show(%q, %q)", repoPath, revision)
	if err := g.open(repoPath); err != nil {
		return "", "", err
	}
	c, ok := g.commits[revision]
	if !ok {
		return "", "", fmt.Errorf("unknown revision %q", revision)
	}
	return c[0], c[1], nil
}

func (g *fakeGit) FileLog(ctx context.Context, sc *roots.Scope, path string, max int) (string, error) {
	g.record("FileLog(%q, %d)", path, max)
	log, ok := g.logs[path]
	if !ok {
		return "", fmt.Errorf("no git repository found at %q: %w", path, roots.ErrNotFound)
	}
	return log, nil
}

func (g *fakeGit) Subjects(ctx context.Context, sc *roots.Scope, repoPath string, n int) ([]string, error) {
	g.record("Subjects(%q, %d)", repoPath, n)
	if err := g.open(repoPath); err != nil {
		return nil, err
	}
	return g.subjects[:min(n, len(g.subjects))], nil
}

func (g *fakeGit) Revisions(ctx context.Context, sc *roots.Scope, repoPath, prefix string) ([]string, error) {
	g.record("Revisions(%q, %q)", repoPath, prefix)
	if err := g.open(repoPath); err != nil {
		return nil, err
	}
	return withPrefix(g.revs, prefix), nil
}

// newScope returns a scope of dirs, as the operator's --root flags would give it.
func newScope(t *testing.T, dirs ...string) *roots.Scope {
	t.Helper()
	set, err := roots.NewSet(dirs, nil)
	if err != nil {
		t.Fatal(err)
	}
	return set.Scope()
}

// connect serves p over in-memory transports and returns the client's session.
func connect(t *testing.T, p *Prompts) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	s := mcp.NewServer(&mcp.Implementation{Name: "grove-test", Version: "v0"}, &mcp.ServerOptions{
		CompletionHandler: p.Complete,
	})
	p.Register(s)
	st, ct := mcp.NewInMemoryTransports()
	ss, err := s.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "client", Version: "v0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// rpcCode returns the JSON-RPC error code of err, or 0.
func rpcCode(err error) int64 {
	var rpcErr *jsonrpc.Error
	if errors.As(err, &rpcErr) {
		return rpcErr.Code
	}
	return 0
}
