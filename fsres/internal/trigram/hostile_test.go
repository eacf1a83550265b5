package trigram

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// hookTree is a tree that calls a hook before each read.
type hookTree struct {
	*osTree
	before func(rel string)
}

func (t hookTree) Read(rel string) ([]byte, bool, error) {
	t.before(rel)
	return t.osTree.Read(rel)
}

func (t hookTree) Walk(ctx context.Context, dir string, fn func(string, fs.DirEntry) error) error {
	return t.osTree.Walk(ctx, dir, fn)
}

// TestBuildWhileEdited edits, creates and removes files while the build reads the tree: files read
// already, files not read yet and new ones. The first search after the build sees all of it.
func TestBuildWhileEdited(t *testing.T) {
	root := tempDir(t)
	files := map[string]string{}
	for i := range 200 {
		files[fmt.Sprintf("d%d/f%03d.txt", i%4, i)] = fmt.Sprintf("old%03d content", i)
	}
	writeFiles(t, root, files)
	s := watched(t, root, Options{})
	reads := 0 // guarded by the tree's lock (lockedHook)
	tree := hookTree{osTree: newTree(root), before: func(string) {
		reads++ // the build reads on two workers; the edits need only happen once
		if reads != 100 {
			return
		}
		for i := 0; i < 200; i += 10 {
			writeFiles(t, root, map[string]string{fmt.Sprintf("d%d/f%03d.txt", i%4, i): fmt.Sprintf("new%03d content", i)})
		}
		writeFiles(t, root, map[string]string{"d9/late.txt": "new999 content"})
		os.Remove(filepath.Join(root, "d1", "f001.txt"))
	}}
	warm(t, s, root, lockedHook{tree})
	var want []string
	for i := 0; i < 200; i += 10 {
		want = append(want, fmt.Sprintf("d%d/f%03d.txt", i%4, i))
	}
	want = append(want, "d9/late.txt")
	slices.Sort(want)
	got, ok := candidates(t, s, root, tree, "new")
	if !ok {
		t.Fatal("no index")
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("files edited during the build (-want +got):\n%s", diff)
	}
	if got, _ := candidates(t, s, root, tree, "old001"); len(got) != 0 {
		t.Errorf("a file removed during the build is still a candidate: %q", got)
	}
	if got, _ := candidates(t, s, root, tree, "old010"); len(got) != 0 {
		t.Errorf("old content of a file edited during the build still matches: %q", got)
	}
}

// lockedHook serializes the hook of a hookTree, whose reads run on several workers.
type lockedHook struct{ hookTree }

func (t lockedHook) Read(rel string) ([]byte, bool, error) {
	t.osTree.mu.Lock()
	t.before(rel)
	t.osTree.mu.Unlock()
	return t.osTree.Read(rel)
}

func TestHugeDirectory(t *testing.T) {
	if testing.Short() {
		t.Skip("200,000 files")
	}
	root := tempDir(t)
	dir := filepath.Join(root, "big")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	const n = 200_000
	for i := range n {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%06d", i)), fmt.Appendf(nil, "id%06d\n", i), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s := watched(t, root, Options{})
	tree := newTree(root)
	warmWithin(t, s, root, tree, 10*timeout) // 200,000 reads on a loaded machine
	if st := s.Stats(); len(st) != 1 || st[0].Files != n {
		t.Fatalf("stats = %+v, want %d files", st, n)
	}
	if got, _ := candidates(t, s, root, tree, "id123456"); !cmp.Equal(got, []string{"big/f123456"}) {
		t.Errorf("candidates = %q", got)
	}
}

// TestHugeLine indexes a 100 MB file of one line, and leaves one above the read limit unread.
func TestHugeLine(t *testing.T) {
	if testing.Short() {
		t.Skip("100 MB")
	}
	root := tempDir(t)
	line := strings.Repeat("abcdefghij", 10<<20) + "needle"
	writeFiles(t, root, map[string]string{"line.txt": line, "small.txt": "needle"})
	big, err := os.Create(filepath.Join(root, "sparse.bin"))
	if err != nil {
		t.Fatal(err)
	}
	big.Truncate(200 << 20)
	big.Close()
	s := watched(t, root, Options{})
	tree := newTree(root)
	tree.maxRead = 150 << 20
	warm(t, s, root, tree)
	if got, _ := candidates(t, s, root, tree, "jneedle"); !cmp.Equal(got, []string{"line.txt"}) {
		t.Errorf("candidates = %q", got)
	}
	if n := tree.readCount("sparse.bin"); n != 1 {
		t.Errorf("sparse.bin read %d times", n)
	}
	if st := s.Stats(); len(st) != 1 || st[0].Skipped != 1 || st[0].TextBytes != int64(len(line)+len("needle")) {
		t.Errorf("stats = %+v", st)
	}
}
