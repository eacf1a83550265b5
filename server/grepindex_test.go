package server

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/grove-mcp/grove/internal/servertest"
	"github.com/grove-mcp/grove/metrics"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestListRootsGrepIndex checks that list_roots reports a root's trigram index once a grep started
// it, with what it holds, and that a grep answers from it.
func TestListRootsGrepIndex(t *testing.T) {
	base := servertest.RealTemp(t)
	text := "func alpha() {}\n"
	for _, name := range []string{"a.go", "sub/b.go"} {
		p := filepath.Join(base, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	m := metrics.New()
	cs, _, s := connectWith(t, Config{Roots: []string{base}, Metrics: m}, servertest.Modern, nil)
	if r := listRoots(t, cs).Roots; len(r) != 1 || r[0].GrepIndex != nil {
		t.Fatalf("before any grep: %+v, want no index", r)
	}
	grep := func(pattern string) string {
		t.Helper()
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "grep", Arguments: map[string]any{"pattern": pattern}})
		if err != nil || res.IsError {
			t.Fatalf("grep: %v %v", err, res)
		}
		return res.Content[0].(*mcp.TextContent).Text
	}
	grep("alpha")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if !s.files.WaitGrepIndex(ctx, base) {
		t.Fatalf("no index: %+v", s.files.GrepIndexes())
	}
	r := listRoots(t, cs).Roots
	if len(r) != 1 || r[0].GrepIndex == nil {
		t.Fatalf("after a grep: %+v, want an index", r)
	}
	ix := r[0].GrepIndex
	if ix.State != "ready" || ix.Files != 2 || ix.TextBytes != int64(2*len(text)) || ix.Bytes <= 0 {
		t.Errorf("grep_index = %+v", ix)
	}
	values, err := m.Values()
	if err != nil {
		t.Fatal(err)
	}
	if got := values["grove_grep_index_bytes"]; got != float64(ix.Bytes) {
		t.Errorf("grove_grep_index_bytes = %v, want list_roots' %d", got, ix.Bytes)
	}
	if got := values["grove_grep_index_text_bytes"]; got != float64(ix.TextBytes) {
		t.Errorf("grove_grep_index_text_bytes = %v, want list_roots' %d", got, ix.TextBytes)
	}
	if err := os.WriteFile(filepath.Join(base, "c.go"), []byte("func beta() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := grep("beta"); !strings.Contains(got, "c.go:1: func beta() {}") {
		t.Errorf("grep right after a write: %s", got)
	}
}
