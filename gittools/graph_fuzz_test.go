package gittools

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/grove-mcp/grove/gittools/internal/history"
)

// A commit-graph file is input grove does not control. Whatever its bytes,
// git_log (plain and path-limited) answers without a panic, and when it
// answers, it gives the commits the object store holds: a broken graph is
// either refused or not trusted, never followed into a wrong history.
func FuzzCommitGraph(f *testing.F) {
	fx := historyFixture(f)
	fx.git("commit-graph", "write", "--reachable")
	graph := filepath.Join(fx.dir, ".git", "objects", "info", "commit-graph")
	data, err := os.ReadFile(graph)
	if err != nil {
		f.Fatal(err)
	}
	if err := os.Remove(graph); err != nil {
		f.Fatal(err)
	}
	want := fuzzLogHashes(f, fx, "")
	wantPath := fuzzLogHashes(f, fx, "src/a.go")
	if len(want) == 0 || len(wantPath) == 0 {
		f.Fatal("the fixture has no history")
	}
	f.Add(data)
	f.Add(data[:len(data)/2])
	f.Fuzz(func(t *testing.T, b []byte) {
		if err := os.WriteFile(graph, b, 0o644); err != nil {
			t.Fatal(err)
		}
		defer os.Remove(graph)
		for _, tt := range []struct {
			path string
			want []string
		}{{"", want}, {"src/a.go", wantPath}} {
			got, err := tryLogHashes(t, fx, tt.path)
			if err == nil && !slices.Equal(got, tt.want) {
				t.Errorf("log %q with a crafted commit-graph: %d commits %v, want %v", tt.path, len(got), got, tt.want)
			}
		}
	})
}

func fuzzLogHashes(f *testing.F, fx *fixture, path string) []string {
	got, err := tryLogHashes(f, fx, path)
	if err != nil {
		f.Fatal(err)
	}
	return got
}

// tryLogHashes runs git_log on a fresh Repos (nothing cached) and returns the hashes.
func tryLogHashes(t testing.TB, fx *fixture, path string) ([]string, error) {
	own := *fx
	own.t = t
	r, sc := own.repos()
	defer r.Close()
	_, out, err := r.logTool(testCtx(t), nil, sc, history.LogArgs{MaxCount: 100, Path: path})
	if err != nil {
		return nil, err
	}
	var hashes []string
	for _, c := range out.Commits {
		hashes = append(hashes, c.Hash)
	}
	return hashes, nil
}
