package server

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/grove-mcp/grove/internal/servertest"
	"github.com/grove-mcp/grove/watch"
)

// TestStatusFeedAdapter checks the adapter that gives git_status the watcher's changes.
func TestStatusFeedAdapter(t *testing.T) {
	dir := servertest.RealTemp(t)
	w, err := watch.New(watch.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if err := w.SetRoots([]string{dir}); err != nil {
		t.Fatal(err)
	}
	c := statusFeed{w}.Watch(dir)
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, lost, err := c.Sync(ctx); err != nil || !lost {
		t.Fatalf("first Sync: lost %v, err %v; want lost", lost, err)
	}
	if !c.Cover([]string{dir}) {
		t.Error("Cover of the watched root = false")
	}
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	paths, lost, err := c.Sync(ctx)
	if err != nil || lost || len(paths) != 1 || paths[0] != filepath.Join(dir, "a.txt") {
		t.Errorf("Sync after a write = %v, lost %v, err %v; want [a.txt]", paths, lost, err)
	}
}

// TestGitStatusSeesChangesMadeJustBefore calls git_status right after each change, through the server
// whose watcher keeps status warm: the feed's barrier must not let a change still in flight be missed.
func TestGitStatusSeesChangesMadeJustBefore(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git CLI not available to build the repository")
	}
	dir := servertest.RealTemp(t)
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "HOME="+dir, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
			"GIT_AUTHOR_NAME=a", "GIT_AUTHOR_EMAIL=a@example.com", "GIT_COMMITTER_NAME=a", "GIT_COMMITTER_EMAIL=a@example.com")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q", "-b", "main")
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git("add", "a.txt")
	git("commit", "-q", "-m", "initial")
	cs, _, _ := connect(t, Config{Roots: []string{dir}}, servertest.Legacy)
	status := func() string {
		t.Helper()
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "git_status", Arguments: map[string]any{}})
		if err != nil || res.IsError {
			t.Fatalf("git_status: %v %+v", err, res)
		}
		return res.Content[0].(*mcp.TextContent).Text
	}
	status()
	for i := range 5 {
		name := fmt.Sprintf("n%d.txt", i)
		if err := os.WriteFile(filepath.Join(dir, name), []byte("n\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := status(); !strings.Contains(got, "?? "+name+"\n") {
			t.Fatalf("git_status right after creating %s:\n%s", name, got)
		}
		if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte(fmt.Sprintf("a %d\n", i)), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := status(); !strings.Contains(got, " M a.txt\n") {
			t.Fatalf("git_status right after editing a.txt:\n%s", got)
		}
		git("checkout", "-q", "--", "a.txt")
		if got := status(); strings.Contains(got, "a.txt") {
			t.Fatalf("git_status right after restoring a.txt:\n%s", got)
		}
	}
}
