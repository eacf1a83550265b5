package gittools

import (
	"os"
	"path/filepath"
	"testing"
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
		idx, err := readIndex(dir, "index")
		if err != nil {
			return
		}
		for _, e := range idx.entries {
			if !validRepoPath(e.name) {
				t.Errorf("parsed an unsafe entry %q", e.name)
			}
		}
	})
}
