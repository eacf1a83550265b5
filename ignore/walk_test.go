package ignore

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/go-git/go-git/v5"
	"github.com/google/go-cmp/cmp"
)

const walkTree = `
-- .gitignore --
*.o
ignored/
-- a/x.txt --
-- a/y.o --
-- a/z/deep.txt --
-- b/c.txt --
-- ignored/file --
-- top.txt --
-- sub/.git --
not a gitdir line
-- sub/inner.txt --
`

// walkAll returns what Walk reports, and its error.
func walkAll(t *testing.T, m *Matcher, ctx context.Context, fn func(rel string, d fs.DirEntry) error) ([]string, error) {
	t.Helper()
	var got []string
	err := m.Walk(ctx, func(rel string, d fs.DirEntry) error {
		if d.IsDir() {
			rel += "/"
		}
		got = append(got, rel)
		if fn != nil {
			return fn(rel, d)
		}
		return nil
	})
	return got, err
}

func TestWalk(t *testing.T) {
	m, dir := newTree(t, walkTree)
	if err := os.Symlink("a", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	got, err := walkAll(t, m, context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{".gitignore", "a/", "a/x.txt", "a/z/", "a/z/deep.txt", "b/", "b/c.txt", "link",
		"sub/", "sub/inner.txt", "top.txt"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Walk mismatch (-want +got):\n%s", diff)
	}
}

func TestWalkSkip(t *testing.T) {
	m, _ := newTree(t, walkTree)
	errStop := errors.New("stop")
	for _, tt := range []struct {
		name    string
		fn      func(rel string, d fs.DirEntry) error
		want    []string
		wantErr error
	}{
		{"SkipDir on a directory", skipAt("a/", fs.SkipDir),
			[]string{".gitignore", "a/", "b/", "b/c.txt", "sub/", "sub/inner.txt", "top.txt"}, nil},
		{"SkipDir on a file", skipAt("a/x.txt", fs.SkipDir),
			[]string{".gitignore", "a/", "a/x.txt", "b/", "b/c.txt", "sub/", "sub/inner.txt", "top.txt"}, nil},
		{"SkipAll", skipAt("a/z/", fs.SkipAll), []string{".gitignore", "a/", "a/x.txt", "a/z/"}, nil},
		{"error", skipAt("b/", errStop), []string{".gitignore", "a/", "a/x.txt", "a/z/", "a/z/deep.txt", "b/"}, errStop},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := walkAll(t, m, context.Background(), tt.fn)
			if !errors.Is(err, tt.wantErr) {
				t.Errorf("Walk error = %v, want %v", err, tt.wantErr)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Walk mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func skipAt(at string, err error) func(string, fs.DirEntry) error {
	return func(rel string, _ fs.DirEntry) error {
		if rel == at {
			return err
		}
		return nil
	}
}

func TestWalkCancel(t *testing.T) {
	m, _ := newTree(t, walkTree)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := walkAll(t, m, ctx, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("Walk with a cancelled context: error %v, want context.Canceled", err)
	}
	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	got, err := walkAll(t, m, ctx, func(rel string, _ fs.DirEntry) error {
		if rel == "a/" {
			cancel()
		}
		return nil
	})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Walk cancelled midway: error %v, want context.Canceled", err)
	}
	if diff := cmp.Diff([]string{".gitignore", "a/"}, got); diff != "" {
		t.Errorf("Walk cancelled midway visited (-want +got):\n%s", diff)
	}
}

func TestWalkEntryInfo(t *testing.T) {
	m, _ := newTree(t, "-- a/b.txt --\nhello\n")
	sizes := map[string]int64{}
	err := m.Walk(context.Background(), func(rel string, d fs.DirEntry) error {
		fi, err := d.Info()
		if err != nil {
			return err
		}
		if fi.Name() != d.Name() || fi.IsDir() != d.IsDir() {
			t.Errorf("%s: Info %s/%v, entry %s/%v", rel, fi.Name(), fi.IsDir(), d.Name(), d.IsDir())
		}
		if !d.IsDir() {
			sizes[rel] = fi.Size()
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]int64{"a/b.txt": 6}, sizes); diff != "" {
		t.Errorf("sizes (-want +got):\n%s", diff)
	}
}

// TestWalkRereadsIgnore checks that Walk sees a changed .gitignore without
// Invalidate, and that Ignored then agrees with it.
func TestWalkRereadsIgnore(t *testing.T) {
	m, dir := newTree(t, "-- a/.gitignore --\n*.o\n-- a/b/x.o --\n-- a/b/y.c --\n")
	if !m.Ignored("a/b/x.o", false) || m.Ignored("a/b/y.c", false) {
		t.Fatal("initial rules not applied")
	}
	if err := os.WriteFile(filepath.Join(dir, "a", ".gitignore"), []byte("*.c\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := walkAll(t, m, context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"a/", "a/.gitignore", "a/b/", "a/b/x.o"}, got); diff != "" {
		t.Errorf("Walk after the change (-want +got):\n%s", diff)
	}
	if m.Ignored("a/b/x.o", false) || !m.Ignored("a/b/y.c", false) {
		t.Error("Ignored still uses the old rules after Walk re-read them")
	}
}

// TestIndexChange checks that Walk notices a rewritten .git/index by itself
// and that Ignored keeps its cached tracked set until then (or Invalidate).
func TestIndexChange(t *testing.T) {
	m, dir := newTree(t, "-- .gitignore --\n*.o\n-- a.o --\n-- b.c --\n")
	initRepo(t, dir, 2, "b.c")
	if !m.Ignored("a.o", false) {
		t.Fatal("a.o not ignored")
	}
	if err := os.Remove(filepath.Join(dir, ".git", "index")); err != nil {
		t.Fatal(err)
	}
	writeIndex(t, dir, "a.o", "b.c")
	if !m.Ignored("a.o", false) {
		t.Error("Ignored re-read the index without Walk or Invalidate")
	}
	got, err := walkAll(t, m, context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{".gitignore", "a.o", "b.c"}, got); diff != "" {
		t.Errorf("Walk after the index changed (-want +got):\n%s", diff)
	}
	if m.Ignored("a.o", false) {
		t.Error("a.o, now tracked, still ignored after Walk re-read the index")
	}
}

// TestSubmodule checks a submodule laid out as git does it: sub/.git is a
// file naming ../.git/modules/sub, whose index and info/exclude apply inside
// sub, and the parent's rules do not.
func TestSubmodule(t *testing.T) {
	m, dir := newTree(t, `
-- .gitignore --
*.o
-- sub/a.o --
-- sub/b.tmp --
-- sub/c.x --
-- sub/.gitignore --
*.tmp
-- top.o --
`)
	initRepo(t, dir, 2)
	modDir := filepath.Join(dir, ".git", "modules", "sub")
	r, err := git.PlainInit(modDir, true)
	if err != nil {
		t.Fatal(err)
	}
	writeIndexVersion(t, r, filepath.Join(dir, "sub"), 2, "b.tmp")
	writeFile(t, filepath.Join(modDir, "info", "exclude"), "*.x\n")
	writeFile(t, filepath.Join(dir, "sub", ".git"), "gitdir: ../.git/modules/sub\n")

	got, err := walkAll(t, m, context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{".gitignore", "sub/", "sub/.gitignore", "sub/a.o", "sub/b.tmp"}, got); diff != "" {
		t.Errorf("Walk (-want +got):\n%s", diff)
	}
	if !m.Tracked("sub/b.tmp") || m.Ignored("sub/a.o", false) || !m.Ignored("sub/c.x", false) {
		t.Error("Tracked/Ignored inside the submodule do not follow its own index and rules")
	}
}
