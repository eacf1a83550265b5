package ignore

import (
	"context"
	"io/fs"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestRealRepo compares Walk with git ls-files --cached --others
// --exclude-standard on the existing worktree named by
// $GROVE_IGNORE_REPO (e.g. a clone of git/git or NetBeans), which it does
// not modify. Tracked files missing from the worktree are left out of git's
// list, since Walk can only report what exists.
func TestRealRepo(t *testing.T) {
	dir := os.Getenv("GROVE_IGNORE_REPO")
	if dir == "" {
		t.Skip("set GROVE_IGNORE_REPO to a worktree to compare with git ls-files")
	}
	env := isolateGit(t)
	start := time.Now()
	m, err := New(dir)
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	err = m.Walk(context.Background(), func(rel string, d fs.DirEntry) error {
		if !d.IsDir() {
			files = append(files, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("Walk: %d files in %v", len(files), time.Since(start))
	start = time.Now()
	if err := m.Walk(context.Background(), func(string, fs.DirEntry) error { return nil }); err != nil {
		t.Fatal(err)
	}
	t.Logf("second Walk: %v", time.Since(start))
	start = time.Now()
	want := lsFiles(t, env, dir, "")
	t.Logf("git ls-files: %d files in %v", len(want), time.Since(start))
	deleted := runGit(t, env, dir, nil, "ls-files", "-z", "--deleted")
	for _, d := range strings.Split(string(deleted), "\x00") {
		if i, ok := slices.BinarySearch(want, d); ok && d != "" {
			want = slices.Delete(want, i, i+1)
		}
	}
	slices.Sort(files)
	if diff := cmp.Diff(want, files); diff != "" {
		t.Errorf("Walk differs from git ls-files (-git +grove):\n%s", diff)
	}
}
