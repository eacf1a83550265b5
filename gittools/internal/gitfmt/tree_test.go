package gitfmt

import (
	"errors"
	"io"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/google/go-cmp/cmp"
)

// encodeTree is a tree object as go-git writes it.
func encodeTree(t *testing.T, entries []object.TreeEntry) []byte {
	t.Helper()
	var o plumbing.MemoryObject
	if err := (&object.Tree{Entries: entries}).Encode(&o); err != nil {
		t.Fatal(err)
	}
	r, err := o.Reader()
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestTreeIterReadsWhatGoGitWrites(t *testing.T) {
	want := []object.TreeEntry{
		{Name: "a.txt", Mode: filemode.Regular, Hash: plumbing.NewHash("1111111111111111111111111111111111111111")},
		{Name: "bin", Mode: filemode.Executable, Hash: plumbing.NewHash("2222222222222222222222222222222222222222")},
		{Name: "dir", Mode: filemode.Dir, Hash: plumbing.NewHash("3333333333333333333333333333333333333333")},
		{Name: "link", Mode: filemode.Symlink, Hash: plumbing.NewHash("4444444444444444444444444444444444444444")},
		{Name: "sub module", Mode: filemode.Submodule, Hash: plumbing.NewHash("5555555555555555555555555555555555555555")},
	}
	data := encodeTree(t, want)
	var got []object.TreeEntry
	it := NewTreeIter(data)
	for e, ok := it.Next(); ok; e, ok = it.Next() {
		got = append(got, object.TreeEntry{Name: string(e.Name), Mode: e.Mode, Hash: e.Hash})
	}
	if err := it.Err(); err != nil {
		t.Fatalf("Err() = %v on a well-formed tree", err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("entries mismatch (-want +got):\n%s", diff)
	}
	for _, w := range want {
		e, ok := FindTreeEntry(data, w.Name)
		if !ok || e.Hash != w.Hash || e.Mode != w.Mode {
			t.Errorf("FindTreeEntry(%q) = %v, %v", w.Name, e, ok)
		}
	}
	if _, ok := FindTreeEntry(data, "a.tx"); ok {
		t.Error("FindTreeEntry found a prefix of a name")
	}
}

func TestTreeIterRefusesMalformedTrees(t *testing.T) {
	hash := string(make([]byte, 20))
	good := "100644 a\x00" + hash
	for _, tt := range []struct {
		name, data string
		entries    int // read before the fault
	}{
		{"no space", "100644a\x00" + hash, 0},
		{"empty mode", " a\x00" + hash, 0},
		{"mode too long", "10000000644 a\x00" + hash, 0},
		{"non-octal mode", "100648 a\x00" + hash, 0},
		{"no NUL", "100644 a" + hash, 0},
		{"short hash", "100644 a\x00" + hash[:19], 0},
		{"bad second entry", good + "1x0644 b\x00" + hash, 1},
		{"truncated second entry", good + "100644 b\x00" + hash[:5], 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			it := NewTreeIter([]byte(tt.data))
			n := 0
			for _, ok := it.Next(); ok; _, ok = it.Next() {
				n++
			}
			if n != tt.entries || !errors.Is(it.Err(), ErrBadTree) {
				t.Errorf("read %d entries, Err() = %v; want %d and ErrBadTree", n, it.Err(), tt.entries)
			}
		})
	}
}
