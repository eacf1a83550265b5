package scan

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/grove-mcp/grove/gittools/internal/gitfmt"
)

// The walk finds every tracked file among its directory's entries, where a directory's files sort among
// those of its subdirectories and of siblings whose names extend its own ("a-b" sorts between "a" and "a/").
func TestFindByDirectory(t *testing.T) {
	names := []string{"a", "a-b", "a/x", "a/y/z", "a/y0", "a/z", "b", "b", "c/d/e"}
	idx := &gitfmt.Index{}
	for i, n := range names {
		stage := 0
		if i == 7 {
			stage = 1 // a second entry of "b"
		}
		idx.Entries = append(idx.Entries, gitfmt.IndexEntry{Name: n, Stage: stage})
	}
	u := &untrackedScan{idx: idx, files: filesByDir(idx)}
	want := map[string]span{"": {0, 8}, "a": {2, 6}, "a/y": {3, 4}, "c/d": {8, 9}}
	if diff := cmp.Diff(want, u.files, cmp.AllowUnexported(span{})); diff != "" {
		t.Errorf("filesByDir mismatch (-want +got):\n%s", diff)
	}
	for i, n := range names {
		if i == 7 {
			continue
		}
		if got, ok := u.find(n); !ok || got != i {
			t.Errorf("find(%q) = %d, %v; want %d, true", n, got, ok, i)
		}
	}
	for _, n := range []string{"a/", "a/y", "c", "c/d", "a/a", "a/zz", "zz", "c/d/f", "x/y"} {
		if got, ok := u.find(n); ok {
			t.Errorf("find(%q) = %d, true; it is not tracked", n, got)
		}
	}
}
