package scan

import (
	"runtime/debug"
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

// Full scans raise the collector's target while any of them runs, and the last to end puts back what was
// there; a target already higher, or the collector off, is left alone.
func TestRelaxGC(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	a := relaxGC()
	b := relaxGC()
	if got := debug.SetGCPercent(scanGCPercent); got != scanGCPercent {
		t.Errorf("during two scans the target is %d, want %d", got, scanGCPercent)
	}
	a()
	a() // a second call changes nothing
	if got := debug.SetGCPercent(scanGCPercent); got != scanGCPercent {
		t.Errorf("with one scan left the target is %d, want %d", got, scanGCPercent)
	}
	b()
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("after the scans the target is %d, want the 100 from before", got)
	}
	for _, before := range []int{-1, 500} {
		debug.SetGCPercent(before)
		restore := relaxGC()
		if got := debug.SetGCPercent(before); got != before {
			t.Errorf("a scan with the target at %d set it to %d", before, got)
		}
		restore()
		if got := debug.SetGCPercent(100); got != before {
			t.Errorf("after a scan the target is %d, want %d", got, before)
		}
	}
}
