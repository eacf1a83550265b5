package fsres

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Nested roots list each file once, under the innermost root that holds it,
// even when the outer root's .gitignore ignores the inner root's directory:
// the user shared it by name.
func TestListResourcesNestedRoots(t *testing.T) {
	outer := t.TempDir()
	outer, _ = filepath.EvalSymlinks(outer)
	writeTxtar(t, outer, `
-- .gitignore --
vendor/
-- a.txt --
a
-- src/b.txt --
b
-- src/c.txt --
c
-- vendor/lib/d.txt --
d
-- single.txt --
s
`)
	src := filepath.Join(outer, "src")
	lib := filepath.Join(outer, "vendor", "lib")
	single := filepath.Join(outer, "single.txt")
	cs := connect(t, newFiles(t, false, outer, src, lib, single), legacy)
	all, _ := listAll(t, cs)
	var got []string
	for _, r := range all {
		got = append(got, r.URI)
	}
	var want []string
	for _, p := range []string{".gitignore", "a.txt", "src/b.txt", "src/c.txt", "vendor/lib/d.txt", "single.txt"} {
		want = append(want, "file://"+filepath.ToSlash(filepath.Join(outer, p)))
	}
	slices.Sort(got)
	slices.Sort(want)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("resources/list of nested roots (-want +got):\n%s", diff)
	}
}
