package watch

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/sys/unix"
)

func TestListDirs(t *testing.T) {
	root := tempDir(t)
	writeTree(t, root, "-- leaf/a.txt --\n-- parent/child/b.txt --\n-- parent/c.txt --\n")
	must(t, os.Symlink("parent", filepath.Join(root, "parent/link")))
	must(t, os.Mkdir(filepath.Join(root, "parent/other"), 0o755))
	var fs unix.Statfs_t
	must(t, unix.Statfs(root, &fs))
	for _, tt := range []struct {
		dir      string
		want     []string
		noSubdir bool // on a file system of leafFS
	}{
		{"leaf", nil, true},
		{"parent", []string{"child", "other"}, false},
		{".", []string{"leaf", "parent"}, false},
	} {
		var got []string
		must(t, listDirs(filepath.Join(root, tt.dir), func(name string) { got = append(got, name) }))
		slices.Sort(got)
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("listDirs(%s) (-want +got):\n%s", tt.dir, diff)
		}
		if leafFS[int64(fs.Type)] {
			if got := noSubdirs(filepath.Join(root, tt.dir)); got != tt.noSubdir {
				t.Errorf("noSubdirs(%s) = %v, want %v", tt.dir, got, tt.noSubdir)
			}
		}
	}
	if err := listDirs(filepath.Join(root, "parent/link"), func(string) {}); err == nil {
		t.Error("listDirs followed a symlink")
	}
}
