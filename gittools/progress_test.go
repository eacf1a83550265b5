package gittools

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/grove-mcp/grove/gittools/internal/gen"
)

func TestLogSendsProgress(t *testing.T) {
	if testing.Short() {
		t.Skip("generates a 2,500-commit history")
	}
	dir := filepath.Join(t.TempDir(), "r")
	info, err := gen.Repo(dir, gen.Options{Files: 8, FilesPerDir: 4, Lines: 3, Commits: 2500, FilesPerCommit: 1, NoDeltas: true})
	if err != nil {
		t.Fatal(err)
	}
	ctx := testCtx(t)
	progress := make(chan float64, 100)
	cs := connectTools(t, dir, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			select {
			case progress <- req.Params.Progress:
			default:
			}
		},
	})
	params := &mcp.CallToolParams{Name: "git_log", Arguments: map[string]any{"path": info.RarePath}}
	params.SetProgressToken("log-1")
	res, err := cs.CallTool(ctx, params)
	if err != nil || res.IsError {
		t.Fatalf("git_log: %v %+v", err, res)
	}
	select {
	case p := <-progress:
		if p <= 0 {
			t.Errorf("progress %v, want > 0", p)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("no progress notification for a 2,500-commit walk")
	}
}
