package watch

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const tree = `
-- a.txt --
a
-- dir/f.txt --
f
-- dir/sub/g.txt --
g
-- build/out.o --
o
-- .git/HEAD --
ref: refs/heads/main
-- .git/index --
i
-- .git/refs/heads/main --
0000000000000000000000000000000000000000
-- .git/objects/00/0000 --
x
`

// ignoreBuild ignores build/, node_modules/ and *.log, as a .gitignore would.
func ignoreBuild(abs string, isDir bool) bool {
	base := filepath.Base(abs)
	return isDir && (base == "build" || base == "node_modules") || strings.HasSuffix(base, ".log")
}

func TestBatches(t *testing.T) {
	for _, tt := range []struct {
		name        string
		change      func(t *testing.T, dir string)
		want        got
		watchesDiff int // Status().Watches after - before
	}{
		{
			name:   "write",
			change: func(t *testing.T, dir string) { appendFile(t, dir, "a.txt") },
			want:   got{Changed: []string{"a.txt"}},
		},
		{
			name:   "truncate",
			change: func(t *testing.T, dir string) { must(t, os.Truncate(filepath.Join(dir, "a.txt"), 0)) },
			want:   got{Changed: []string{"a.txt"}},
		},
		{
			name:   "delete",
			change: func(t *testing.T, dir string) { must(t, os.Remove(filepath.Join(dir, "dir/f.txt"))) },
			want:   got{Changed: []string{"dir/f.txt"}, Removed: []string{"dir/f.txt"}},
		},
		{
			name: "re-create",
			change: func(t *testing.T, dir string) {
				must(t, os.Remove(filepath.Join(dir, "a.txt")))
				must(t, os.WriteFile(filepath.Join(dir, "a.txt"), []byte("new"), 0o644))
			},
			want: got{Changed: []string{"a.txt"}, Created: []string{"a.txt"}, Removed: []string{"a.txt"}},
		},
		{
			name: "atomic rename-over save",
			change: func(t *testing.T, dir string) {
				must(t, os.WriteFile(filepath.Join(dir, "dir/.f.txt.tmp"), []byte("saved"), 0o644))
				must(t, os.Rename(filepath.Join(dir, "dir/.f.txt.tmp"), filepath.Join(dir, "dir/f.txt")))
			},
			want: got{
				Changed: []string{"dir/.f.txt.tmp", "dir/f.txt"},
				Created: []string{"dir/.f.txt.tmp", "dir/f.txt"},
				Removed: []string{"dir/.f.txt.tmp"},
			},
		},
		{
			name: "new directory with files created at once",
			change: func(t *testing.T, dir string) {
				must(t, os.MkdirAll(filepath.Join(dir, "new/a/b"), 0o755))
				must(t, os.WriteFile(filepath.Join(dir, "new/a/b/f.txt"), nil, 0o644))
				must(t, os.WriteFile(filepath.Join(dir, "new/x.txt"), []byte("x"), 0o644))
			},
			want: got{
				Changed: []string{"new", "new/a", "new/a/b", "new/a/b/f.txt", "new/x.txt"},
				Created: []string{"new", "new/a", "new/a/b", "new/a/b/f.txt", "new/x.txt"},
			},
			watchesDiff: 3,
		},
		{
			name:   "removed directory",
			change: func(t *testing.T, dir string) { must(t, os.RemoveAll(filepath.Join(dir, "dir"))) },
			want: got{
				Changed: []string{"dir", "dir/f.txt", "dir/sub", "dir/sub/g.txt"},
				Removed: []string{"dir", "dir/f.txt", "dir/sub", "dir/sub/g.txt"},
			},
			watchesDiff: -2,
		},
		{
			name: "renamed directory",
			change: func(t *testing.T, dir string) {
				must(t, os.Rename(filepath.Join(dir, "dir"), filepath.Join(dir, "moved")))
				appendFile(t, dir, "moved/sub/g.txt")
			},
			want: got{
				Changed: []string{"dir", "dir/sub", "moved", "moved/f.txt", "moved/sub", "moved/sub/g.txt"},
				Created: []string{"moved", "moved/f.txt", "moved/sub", "moved/sub/g.txt"},
				Removed: []string{"dir", "dir/sub"},
			},
		},
		{
			name: "ignored directory and file",
			change: func(t *testing.T, dir string) {
				appendFile(t, dir, "build/out.o")
				appendFile(t, dir, "debug.log")
				must(t, os.MkdirAll(filepath.Join(dir, "node_modules/pkg"), 0o755))
				appendFile(t, dir, "node_modules/pkg/index.js")
			},
			want: got{},
		},
		{
			name: "git index and HEAD",
			change: func(t *testing.T, dir string) {
				lockAndRename(t, dir, ".git/index")
				appendFile(t, dir, ".git/objects/00/0000")
			},
			want: got{Git: []string{"."}},
		},
		{
			name: "git new branch",
			change: func(t *testing.T, dir string) {
				must(t, os.MkdirAll(filepath.Join(dir, ".git/refs/heads/feature"), 0o755))
				lockAndRename(t, dir, ".git/refs/heads/feature/x")
			},
			want:        got{Git: []string{"."}},
			watchesDiff: 1,
		},
		{
			name: "symlinked directory is not followed",
			change: func(t *testing.T, dir string) {
				outside := tempDir(t)
				must(t, os.Symlink(outside, filepath.Join(dir, "link")))
				appendFile(t, outside, "secret.txt")
			},
			want: got{Changed: []string{"link"}, Created: []string{"link"}},
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := tempDir(t)
			writeTree(t, dir, tree)
			w := newWatcher(t, Options{Ignore: ignoreBuild}, dir)
			before := w.Status().Watches
			tt.change(t, dir)
			g := untilSentinel(t, w, dir, dir)
			if diff := cmp.Diff(tt.want, g); diff != "" {
				t.Errorf("batches mismatch (-want +got):\n%s", diff)
			}
			if got := w.Status().Watches - before; got != tt.watchesDiff {
				t.Errorf("Watches changed by %d, want %d", got, tt.watchesDiff)
			}
		})
	}
}

// TestWatchCount checks which directories a tree needs: every non-ignored directory, .git and .git/refs/**,
// not .git/objects.
func TestWatchCount(t *testing.T) {
	dir := tempDir(t)
	writeTree(t, dir, tree)
	w := newWatcher(t, Options{Ignore: ignoreBuild}, dir)
	want := []string{".", ".git", ".git/refs", ".git/refs/heads", "dir", "dir/sub"}
	if diff := cmp.Diff(want, watched(w, dir)); diff != "" {
		t.Errorf("watched directories mismatch (-want +got):\n%s", diff)
	}
}

func appendFile(t *testing.T, dir, name string) {
	t.Helper()
	f, err := os.OpenFile(filepath.Join(dir, filepath.FromSlash(name)), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	must(t, err)
	_, err = f.WriteString("more\n")
	must(t, err)
	must(t, f.Close())
}

// lockAndRename updates name the way git does: write name.lock, rename it over name.
func lockAndRename(t *testing.T, dir, name string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	must(t, os.WriteFile(p+".lock", []byte("updated\n"), 0o644))
	must(t, os.Rename(p+".lock", p))
}
