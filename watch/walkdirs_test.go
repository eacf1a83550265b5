package watch

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// watchedBy walks root with wk's mode on a fresh Watcher and returns the watched directories, relative to root,
// in the order the walk added them.
func watchedBy(t *testing.T, root string, opts Options, report bool) []string {
	t.Helper()
	w, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	var order []string
	w.mu.Lock()
	wk := walker{w: w}
	if report {
		wk.c = &changes{}
	}
	err = wk.walk(root)
	for p := range w.dirs {
		rel, _ := filepath.Rel(root, p)
		order = append(order, rel)
	}
	w.mu.Unlock()
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(order)
	return order
}

// TestWalkDirsWatchesWhatWalkDirDoes compares the directories-only walk of start-up with filepath.WalkDir's
// (the walk that reports what it finds): symlinks to directories, ignored directories, .git, files, and a
// watch limit that cuts the walk short must give the same watched set.
func TestWalkDirsWatchesWhatWalkDirDoes(t *testing.T) {
	root := tempDir(t)
	writeTree(t, root, "-- a/x.txt --\n-- a/b/y.txt --\n-- a/b/c/z.txt --\n-- build/out.o --\n"+
		"-- d/e/f.txt --\n-- d/debug.log --\n-- g.txt --\n-- .git/HEAD --\nref: refs/heads/main\n-- .git/refs/heads/main --\n")
	for i := range 50 {
		must(t, os.WriteFile(filepath.Join(root, "d", "file"+string(rune('a'+i%26))+string(rune('a'+i/26))), nil, 0o644))
	}
	must(t, os.Symlink("a", filepath.Join(root, "link-to-dir")))
	must(t, os.Mkdir(filepath.Join(root, "empty"), 0o755))
	for _, tt := range []struct {
		name string
		opts Options
	}{
		{"all", Options{}},
		{"ignoring build", Options{Ignore: ignoreBuild}},
		{"limit of 3", Options{MaxWatches: 3}},
		{"limit of 5", Options{MaxWatches: 5}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			want := watchedBy(t, root, tt.opts, true)
			got := watchedBy(t, root, tt.opts, false)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("watched directories (-WalkDir +dirs only):\n%s", diff)
			}
			if len(got) < 2 {
				t.Errorf("watched %q: the walk did not get past the root", got)
			}
		})
	}
}
