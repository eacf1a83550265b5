package httpserve

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/grove-mcp/grove/metrics"
	"github.com/grove-mcp/grove/roots"
	"github.com/grove-mcp/grove/server"
)

// The helpers below are the transport tests' share of package server's test
// helpers: a test package cannot import another's.

const (
	legacy = "2025-11-25"
	modern = server.ModernVersion
)

var eras = []string{legacy, modern}

const waitLimit = 30 * time.Second

// realTemp is t.TempDir with symlinks resolved (macOS /var -> /private/var).
func realTemp(t testing.TB) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func mkdirs(t testing.TB, base string, names ...string) {
	t.Helper()
	for _, n := range names {
		if err := os.MkdirAll(filepath.Join(base, n), 0o755); err != nil {
			t.Fatal(err)
		}
	}
}

func write(t testing.TB, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func listRoots(t *testing.T, cs *mcp.ClientSession) server.ListRootsOut {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "list_roots"})
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError {
		t.Fatalf("list_roots failed: %v", res.Content)
	}
	var out server.ListRootsOut
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func paths(out server.ListRootsOut) []string {
	var ps []string
	for _, r := range out.Roots {
		ps = append(ps, r.Path)
	}
	slices.Sort(ps)
	return ps
}

// events collects what a client is told.
type events struct {
	updated     chan string
	listChanged chan struct{}
	logged      chan *mcp.LoggingMessageParams
}

// expectUpdated waits for an update of want; an update of any URI in
// forbidden before it fails the test.
func expectUpdated(t *testing.T, ev events, want string, forbidden ...string) {
	t.Helper()
	timeout := time.After(waitLimit)
	for {
		select {
		case got := <-ev.updated:
			if got == want {
				return
			}
			if slices.Contains(forbidden, got) {
				t.Fatalf("got an update for %s, which nobody subscribed to", got)
			}
		case <-timeout:
			t.Fatalf("no update for %s within %v", want, waitLimit)
		}
	}
}

// primeUpdates writes path until an update of uri arrives, then waits until
// the updates stop for a while: a modern subscription reaches the SDK's
// record just after grove's, and a first change can fall in between.
func primeUpdates(t *testing.T, ev events, path, uri string) {
	t.Helper()
	deadline := time.Now().Add(waitLimit)
	for i := 0; ; i++ {
		write(t, path, fmt.Sprintf("prime %d", i))
		select {
		case got := <-ev.updated:
			if got == uri {
				drainUpdates(ev, 300*time.Millisecond)
				return
			}
		case <-time.After(time.Second):
		}
		if time.Now().After(deadline) {
			t.Fatalf("no update for %s within %v of writes", uri, waitLimit)
		}
	}
}

// drainUpdates discards updates until none has come for quiet.
func drainUpdates(ev events, quiet time.Duration) {
	for {
		select {
		case <-ev.updated:
		case <-time.After(quiet):
			return
		}
	}
}

func drainListChanged(ev events) {
	for {
		select {
		case <-ev.listChanged:
		default:
			return
		}
	}
}

func expectListChanged(t *testing.T, ev events) {
	t.Helper()
	select {
	case <-ev.listChanged:
	case <-time.After(waitLimit):
		t.Fatal("no list_changed")
	}
}

// setClientRoots changes the client's roots from from to to (adding first,
// so that the roots never fall back to the operator's while they change) and
// waits until the server applied them: list_roots waits for the roots/list
// in flight.
func setClientRoots(t *testing.T, cs *mcp.ClientSession, client *mcp.Client, from []string, to ...string) {
	t.Helper()
	var add []*mcp.Root
	for _, d := range to {
		add = append(add, &mcp.Root{URI: roots.URI(d)})
	}
	client.AddRoots(add...)
	var remove []string
	for _, d := range from {
		if !slices.Contains(to, d) {
			remove = append(remove, roots.URI(d))
		}
	}
	client.RemoveRoots(remove...)
	want := slices.Sorted(slices.Values(to))
	if got := paths(listRoots(t, cs)); !slices.Equal(got, want) {
		t.Fatalf("roots %v, want %v", got, want)
	}
}

// waitSubscriptions waits until the server holds n subscriptions, as its
// grove_subscriptions gauge says: a modern client's Subscribe and
// Unsubscribe return before the server has processed them.
func waitSubscriptions(t *testing.T, m *metrics.Metrics, n int) {
	t.Helper()
	deadline := time.Now().Add(waitLimit)
	for {
		got := gauge(t, m, "grove_subscriptions")
		if got == n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d subscriptions after %v, want %d", got, waitLimit, n)
		}
		time.Sleep(time.Millisecond)
	}
}

// gauge reads one unlabelled gauge from m's exposition.
func gauge(t *testing.T, m *metrics.Metrics, name string) int {
	t.Helper()
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	sc := bufio.NewScanner(rec.Body)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), name+" "); ok {
			n, err := strconv.ParseFloat(v, 64)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			return int(n)
		}
	}
	t.Fatalf("no gauge %s", name)
	return 0
}

// commitAll makes dir a repository with one commit of everything in it.
func commitAll(t *testing.T, dir string) {
	t.Helper()
	repo, err := git.PlainInit(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	wt, err := repo.Worktree()
	if err != nil {
		t.Fatal(err)
	}
	if err := wt.AddWithOptions(&git.AddOptions{All: true}); err != nil {
		t.Fatal(err)
	}
	sig := &object.Signature{Name: "Test", Email: "test@example.com", When: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	if _, err := wt.Commit("Initial commit\n", &git.CommitOptions{Author: sig, Committer: sig}); err != nil {
		t.Fatal(err)
	}
}

// modernRequestMeta is the _meta of a modern request; with roots, the client
// declares the roots capability.
func modernRequestMeta(roots bool) map[string]any {
	caps := map[string]any{}
	if roots {
		caps["roots"] = map[string]any{}
	}
	return map[string]any{
		mcp.MetaKeyProtocolVersion:    modern,
		mcp.MetaKeyClientCapabilities: caps,
		mcp.MetaKeyClientInfo:         map[string]any{"name": "raw", "version": "1"},
	}
}

var buildOnce struct {
	sync.Once
	path string
	err  error
}

// groveBinary builds the command once per test run.
func groveBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs the binary; skipped with -short")
	}
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "grove-e2e")
		if err != nil {
			buildOnce.err = err
			return
		}
		buildOnce.path = filepath.Join(dir, "grove")
		out, err := exec.Command("go", "build", "-o", buildOnce.path, "../..").CombinedOutput()
		if err != nil {
			buildOnce.err = err
			buildOnce.path = string(out)
		}
	})
	if buildOnce.err != nil {
		t.Fatalf("go build: %v\n%s", buildOnce.err, buildOnce.path)
	}
	return buildOnce.path
}
