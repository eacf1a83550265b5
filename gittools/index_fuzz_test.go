package gittools

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/grove-mcp/grove/gittools/internal/gitfmt"
)

// A repository's index is input grove does not control (a repository can
// arrive with its .git): parsing any bytes must give an index or an error,
// never a panic, and a parsed index holds only safe paths.
func FuzzReadIndex(f *testing.F) {
	fx := newFixture(f)
	fx.write("a.txt", "a\n", "dir/b.txt", "b\n")
	fx.commit("one")
	fx.write("dir/c.txt", "c\n")
	fx.git("add", "dir/c.txt")
	data, err := os.ReadFile(filepath.Join(fx.dir, ".git", "index"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	f.Add(data[:len(data)/2])
	f.Add([]byte("DIRC"))
	f.Fuzz(func(t *testing.T, b []byte) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "index"), b, 0o644); err != nil {
			t.Fatal(err)
		}
		idx, err := readIndexAt(t, dir)
		if err != nil {
			return
		}
		for _, e := range idx.Entries {
			if !gitfmt.ValidPath(e.Name) {
				t.Errorf("parsed an unsafe entry %q", e.Name)
			}
		}
	})
}

// readIndexAt parses dir/index through an os.Root of dir, as repositories read theirs.
func readIndexAt(t *testing.T, dir string) (*gitfmt.Index, error) {
	t.Helper()
	r, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	return gitfmt.ReadIndex(r, "index")
}
