package gittools

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/grove-mcp/grove/gittools/internal/refs"

	"github.com/grove-mcp/grove/gittools/internal/status"

	"github.com/grove-mcp/grove/gittools/internal/history"

	"github.com/grove-mcp/grove/gittools/internal/diff"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestConcurrentCalls(t *testing.T) {
	f := historyFixture(t)
	f.write("src/a.go", "changed\n", "untracked.txt", "u\n")
	r, sc := f.repos()
	ctx := testCtx(t)
	wantStatus := gitStatus(f)
	wantLog := gitLogHashes(f, "-5")
	var wg sync.WaitGroup
	errs := make(chan error, 200)
	for i := range 40 {
		wg.Go(func() {
			switch i % 5 {
			case 0:
				_, out, err := r.status(ctx, nil, sc, status.StatusArgs{})
				if err == nil && len(out.Entries) != len(wantStatus) {
					err = fmt.Errorf("status: %d entries, want %d", len(out.Entries), len(wantStatus))
				}
				errs <- err
			case 1:
				_, out, err := r.logTool(ctx, nil, sc, history.LogArgs{MaxCount: 5})
				if err == nil && (len(out.Commits) != 5 || out.Commits[4].Hash != wantLog[4]) {
					err = fmt.Errorf("log mismatch")
				}
				errs <- err
			case 2:
				_, _, err := r.diffTool(ctx, nil, sc, diff.DiffArgs{})
				errs <- err
			case 3:
				_, _, err := r.showTool(ctx, nil, sc, diff.ShowArgs{Revision: "HEAD~1"})
				errs <- err
			case 4:
				_, _, err := r.logTool(ctx, nil, sc, history.LogArgs{Path: "src/a.go"})
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
}

func TestCachesFollowTheRepository(t *testing.T) {
	f := historyFixture(t)
	r, sc := f.repos()
	ctx := testCtx(t)
	if _, _, err := r.status(ctx, nil, sc, status.StatusArgs{}); err != nil {
		t.Fatal(err)
	}
	f.write("new.txt", "n\n")
	f.commit("after first open")
	f.git("gc", "-q", "--prune=now") // repacks: the old pack disappears
	f.write("README", "edited\n")
	_, out, err := r.status(ctx, nil, sc, status.StatusArgs{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(gitStatus(f), statusOf2(out)); diff != "" {
		t.Errorf("status after changes (-git +grove):\n%s", diff)
	}
	_, lg, err := r.logTool(ctx, nil, sc, history.LogArgs{MaxCount: 100})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(lg.Commits), len(gitLogHashes(f)); got != want || lg.Commits[0].Subject != "after first open" {
		t.Errorf("log after gc: %d commits (first %q), want %d", got, lg.Commits[0].Subject, want)
	}
	r.Invalidate(f.dir)
	if _, _, err := r.status(ctx, nil, sc, status.StatusArgs{}); err != nil {
		t.Fatal(err)
	}
}

func statusOf2(out status.StatusOut) []string {
	lines := []string{}
	for _, e := range out.Entries {
		lines = append(lines, e.Index+e.Worktree+" "+e.Path)
	}
	return lines
}

func TestToolsOverMCP(t *testing.T) {
	f := historyFixture(t)
	ctx := testCtx(t)
	cs := connectTools(t, f.dir, nil)
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range tools.Tools {
		names = append(names, tl.Name)
		if a := tl.Annotations; a == nil || !a.ReadOnlyHint || a.OpenWorldHint == nil || *a.OpenWorldHint {
			t.Errorf("%s: annotations %+v, want read-only and closed-world", tl.Name, a)
		}
	}
	want := []string{"git_blame", "git_branch", "git_diff", "git_log", "git_show", "git_status", "git_tag"}
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("tools (-want +got):\n%s", diff)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "git_branch", Arguments: map[string]any{"branch_type": "all"}})
	if err != nil || res.IsError {
		t.Fatalf("git_branch: %v %+v", err, res)
	}
	if text := resultText(res); !strings.Contains(text, "* main") || !strings.Contains(text, "  feature") {
		t.Errorf("git_branch text = %q", text)
	}
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "git_log", Arguments: map[string]any{"revision": "--output=/tmp/x"}})
	if err != nil || !res.IsError {
		t.Errorf("option-like revision over MCP: err=%v result=%+v, want an error result", err, res)
	}
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "git_tag", Arguments: map[string]any{"name": "v1"}})
	if err != nil || !res.IsError {
		t.Errorf("creating a tag on a read-only server: err=%v result=%+v", err, res)
	}
	if _, err := os.Stat(filepath.Join(f.dir, ".git", "refs", "tags", "v1")); err == nil {
		t.Error("read-only server created a tag")
	}
}

func TestTagListMatchesGit(t *testing.T) {
	f := historyFixture(t)
	f.git("tag", "v1.0", "HEAD~2")
	f.git("tag", "-a", "-m", "release two\n\nnotes", "v2.0")
	f.git("tag", "alpha", "feature")
	r, sc := f.repos()
	_, out, err := r.tag(testCtx(t), nil, sc, refs.TagArgs{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tg := range out.Tags {
		got = append(got, tg.Name+" "+tg.Commit)
	}
	want := strings.Fields(strings.ReplaceAll(f.git("for-each-ref", "--format=%(refname:short)_%(*objectname)%(objectname)", "refs/tags"), "_", " "))
	var pairs []string
	for i := 0; i+1 < len(want); i += 2 {
		h := want[i+1]
		if len(h) == 80 {
			h = h[:40] // annotated: peeled object first
		}
		pairs = append(pairs, want[i]+" "+h)
	}
	if diff := cmp.Diff(pairs, got); diff != "" {
		t.Errorf("tags (-git +grove):\n%s", diff)
	}
}
