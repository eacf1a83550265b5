package roots_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/grove-mcp/grove/roots"
)

const singleTree = `
-- d/f.txt --
the file
-- d/sibling.txt --
SIBLING
-- d/sub/x.txt --
X
`

func singleFileScope(t *testing.T) (string, *roots.Scope) {
	t.Helper()
	tmp := realTempDir(t)
	writeTree(t, tmp, singleTree)
	return tmp, newScope(t, filepath.Join(tmp, "d", "f.txt"))
}

func TestSingleFileRoot(t *testing.T) {
	tmp, sc := singleFileScope(t)
	file := filepath.Join(tmp, "d", "f.txt")
	want := []roots.Root{{URI: roots.URI(file), Path: file, Name: "f.txt", Source: roots.Flag, File: true}}
	if diff := cmp.Diff(want, sc.Roots()); diff != "" {
		t.Errorf("Roots() mismatch (-want +got):\n%s", diff)
	}
	for _, tt := range []struct {
		input, wantData string
		wantNotFound    bool
	}{
		{input: file, wantData: "the file\n"},
		{input: roots.URI(file), wantData: "the file\n"},
		{input: "f.txt", wantData: "the file\n"},
		{input: filepath.Join(tmp, "d", "sub", "..", "f.txt"), wantData: "the file\n"},
		{input: filepath.Join(tmp, "d", "sibling.txt"), wantNotFound: true},
		{input: roots.URI(filepath.Join(tmp, "d", "sibling.txt")), wantNotFound: true},
		{input: "sibling.txt", wantNotFound: true},
		{input: "sub/x.txt", wantNotFound: true},
		{input: "./", wantNotFound: true},
		{input: filepath.Join(tmp, "d"), wantNotFound: true},
		{input: filepath.Join(tmp, "d") + "/", wantNotFound: true},
		{input: file + "/x", wantNotFound: true},
		{input: "f.txt/..", wantNotFound: true},
	} {
		t.Run(tt.input, func(t *testing.T) {
			got, err := resolveAndRead(t, sc, tt.input)
			if tt.wantNotFound {
				if err == nil {
					t.Fatalf("%q read %q, want not found", tt.input, got)
				}
				if pub := roots.PublicError(tt.input, err); !errors.Is(pub, roots.ErrNotFound) {
					t.Errorf("%q: %v, want ErrNotFound", tt.input, pub)
				}
				return
			}
			if err != nil || got != tt.wantData {
				t.Errorf("%q read %q, %v; want %q", tt.input, got, err, tt.wantData)
			}
		})
	}
}

func TestSingleFileRootLocAbs(t *testing.T) {
	tmp, sc := singleFileScope(t)
	file := filepath.Join(tmp, "d", "f.txt")
	loc, err := sc.Resolve(file)
	if err != nil {
		t.Fatal(err)
	}
	if got := loc.Abs(); got != file {
		t.Errorf("Abs() = %q, want %q", got, file)
	}
	if got := loc.URI(); got != roots.URI(file) {
		t.Errorf("URI() = %q, want %q", got, roots.URI(file))
	}
	if info, err := loc.Stat(); err != nil || info.IsDir() {
		t.Errorf("Stat() = %v, %v; want the file", info, err)
	}
}

// TestSingleFileRootJoin checks that a lexical Join from a single-file root
// cannot reach the file's siblings through the parent directory it opens.
func TestSingleFileRootJoin(t *testing.T) {
	tmp, sc := singleFileScope(t)
	loc, err := sc.Resolve(filepath.Join(tmp, "d", "f.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, rel := range []string{"../sibling.txt", "../sub/x.txt"} {
		if got, err := readLoc(t, loc.Join(rel)); err == nil {
			t.Errorf("Join(%q) from a single-file root read %q", rel, got)
		}
	}
}

// TestSingleFileRootSwappedForSymlink replaces the file with a symlink to a
// sibling after the root was set; the sibling must stay unreadable.
func TestSingleFileRootSwappedForSymlink(t *testing.T) {
	tmp, sc := singleFileScope(t)
	file := filepath.Join(tmp, "d", "f.txt")
	loc, err := sc.Resolve(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(file); err != nil {
		t.Fatal(err)
	}
	symlink(t, "sibling.txt", file)
	if got, err := readLoc(t, loc); err == nil {
		t.Errorf("after f.txt became a symlink to its sibling, OpenFile read %q", got)
	}
	if info, err := loc.Stat(); err == nil {
		t.Errorf("after f.txt became a symlink to its sibling, Stat = %v (size %d)", info.Name(), info.Size())
	}
}

func TestSingleFileRootThroughSymlink(t *testing.T) {
	tmp := realTempDir(t)
	writeTree(t, tmp, singleTree)
	file := filepath.Join(tmp, "d", "f.txt")
	link := filepath.Join(tmp, "link.txt")
	symlink(t, file, link)
	sc := newScope(t, link)
	want := []roots.Root{{URI: roots.URI(file), Path: file, Name: "f.txt", Source: roots.Flag, File: true}}
	if diff := cmp.Diff(want, sc.Roots()); diff != "" {
		t.Errorf("Roots() mismatch (-want +got):\n%s", diff)
	}
	for _, input := range []string{link, roots.URI(link), file, "f.txt"} {
		if got, err := resolveAndRead(t, sc, input); err != nil || got != "the file\n" {
			t.Errorf("%q read %q, %v; want the file", input, got, err)
		}
	}
	for _, input := range []string{filepath.Join(tmp, "sibling.txt"), "sibling.txt", filepath.Join(tmp, "d", "sibling.txt")} {
		if got, err := resolveAndRead(t, sc, input); err == nil {
			t.Errorf("%q read %q, want not found", input, got)
		}
	}
}
