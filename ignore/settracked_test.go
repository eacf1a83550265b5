package ignore

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// A caller that parsed the index hands the matcher its names; the matcher uses them only while its own look
// at the index finds the very file they came from.
func TestSetTracked(t *testing.T) {
	env := isolateGit(t)
	dir := t.TempDir()
	runGit(t, env, dir, nil, "init", "-q")
	for name, data := range map[string]string{".gitignore": "*.o\n", "keep.o": "k", "extra.o": "e", "other.o": "o", "a.txt": "a"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	runGit(t, env, dir, nil, "add", "-f", ".gitignore", "keep.o", "a.txt")
	index := filepath.Join(dir, ".git", "index")
	fi, err := os.Lstat(index)
	if err != nil {
		t.Fatal(err)
	}
	walked := func(m *Matcher) []string {
		var got []string
		err := m.Walk(context.Background(), func(rel string, d fs.DirEntry) error {
			got = append(got, rel)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	handed := []string{".gitignore", "a.txt", "extra.o", "keep.o"} // claims extra.o is tracked

	m, err := New(dir)
	if err != nil {
		t.Fatal(err)
	}
	m.SetTracked(fi, func() []string { return slices.Clone(handed) })
	if m.Ignored("extra.o", false) || !m.Ignored("other.o", false) || m.Ignored("keep.o", false) {
		t.Errorf("with the names handed over: extra.o ignored %v, other.o %v, keep.o %v; want false, true, false",
			m.Ignored("extra.o", false), m.Ignored("other.o", false), m.Ignored("keep.o", false))
	}
	if got := walked(m); !slices.Contains(got, "extra.o") {
		t.Errorf("the walk over the same index does not use the names handed over: %v", got)
	}

	runGit(t, env, dir, nil, "rm", "-q", "--cached", "a.txt") // a new index file
	if got := walked(m); slices.Contains(got, "extra.o") || !slices.Contains(got, "keep.o") {
		t.Errorf("after the index changed, the walk still uses the names handed over: %v", got)
	}

	other, err := New(dir)
	if err != nil {
		t.Fatal(err)
	}
	notIndex, err := os.Lstat(filepath.Join(dir, "a.txt"))
	if err != nil {
		t.Fatal(err)
	}
	other.SetTracked(notIndex, func() []string { return slices.Clone(handed) })
	if !other.Ignored("extra.o", false) {
		t.Error("names handed over with another file's stat data were used")
	}
	now, err := os.Lstat(index)
	if err != nil {
		t.Fatal(err)
	}
	other.SetTracked(now, func() []string { return []string{"extra.o", "a.txt"} })
	if !other.Ignored("extra.o", false) {
		t.Error("unsorted names were used")
	}
}
