package merge

import (
	"bytes"
	"io"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/storage/memory"
	"github.com/google/go-cmp/cmp"

	"github.com/grove-mcp/grove/gittools/internal/packwrite"
)

func TestParseTreeReadsWhatGoGitWrites(t *testing.T) {
	want := []object.TreeEntry{
		{Name: "a b.txt", Mode: filemode.Regular, Hash: plumbing.NewHash("0123456789abcdef0123456789abcdef01234567")},
		{Name: "dir", Mode: filemode.Dir, Hash: plumbing.NewHash("00000000000000000000000000000000000000ff")},
		{Name: "link", Mode: filemode.Symlink, Hash: plumbing.NewHash("2020202020202020202020202020202020202020")}, // hash bytes are spaces
		{Name: "run", Mode: filemode.Executable, Hash: plumbing.NewHash("ffffffffffffffffffffffffffffffffffffffff")},
		{Name: "sub", Mode: filemode.Submodule, Hash: plumbing.NewHash("1111111111111111111111111111111111111111")},
	}
	o := &plumbing.MemoryObject{}
	if err := (&object.Tree{Entries: want}).Encode(o); err != nil {
		t.Fatal(err)
	}
	data := make([]byte, o.Size())
	r, _ := o.Reader()
	if _, err := r.Read(data); err != nil {
		t.Fatal(err)
	}
	got, err := parseTree(data)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if es, err := parseTree(nil); err != nil || len(es) != 0 {
		t.Errorf("empty tree: %v %v", es, err)
	}
	for _, bad := range []string{"100644 a\x00short", "100644 \x00" + string(make([]byte, 20)), " a\x00" + string(make([]byte, 20)),
		"10x644 a\x00" + string(make([]byte, 20)), "100644a\x00" + string(make([]byte, 20)), "1006440000000000 a\x00" + string(make([]byte, 20))} {
		if _, err := parseTree([]byte(bad)); err == nil {
			t.Errorf("parseTree(%q) accepted a malformed tree", bad)
		}
	}
}

func TestEncodeTreeIsGoGitsEncoding(t *testing.T) {
	es := []object.TreeEntry{
		{Name: "a b.txt", Mode: filemode.Regular, Hash: plumbing.NewHash("0123456789abcdef0123456789abcdef01234567")},
		{Name: "dir", Mode: filemode.Dir, Hash: plumbing.NewHash("00000000000000000000000000000000000000ff")},
		{Name: "link", Mode: filemode.Symlink, Hash: plumbing.NewHash("2020202020202020202020202020202020202020")},
		{Name: "run", Mode: filemode.Executable, Hash: plumbing.NewHash("ffffffffffffffffffffffffffffffffffffffff")},
		{Name: "sub", Mode: filemode.Submodule, Hash: plumbing.NewHash("1111111111111111111111111111111111111111")},
	}
	o := &plumbing.MemoryObject{}
	if err := (&object.Tree{Entries: es}).Encode(o); err != nil {
		t.Fatal(err)
	}
	want := make([]byte, o.Size())
	r, _ := o.Reader()
	if _, err := io.ReadFull(r, want); err != nil {
		t.Fatal(err)
	}
	if got := encodeTree(es); !bytes.Equal(got, want) {
		t.Errorf("encodeTree:\n%q\ngo-git:\n%q", got, want)
	}
}

// TestPackHoldsUntilFlush: with Pack set, new trees and small blobs are read back from memory, reach Pack
// in one call at Flush under the names go-git gives them, and a big blob or a stored object never waits.
func TestPackHoldsUntilFlush(t *testing.T) {
	mem := memory.NewStorage()
	var packed [][]packwrite.Object
	s := &Store{S: mem, PackMax: 8, Pack: func(objs []packwrite.Object) error { packed = append(packed, objs); return nil }}
	stored := &Store{S: mem}
	old, err := stored.PutBlob([]byte("old\n"))
	if err != nil {
		t.Fatal(err)
	}
	small, err := s.PutBlob([]byte("small\n"))
	if err != nil {
		t.Fatal(err)
	}
	big, err := s.PutBlob([]byte("more than eight bytes\n"))
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := s.PutBlob([]byte("old\n")); again != old {
		t.Errorf("a stored blob got another name: %s, want %s", again, old)
	}
	tree, err := s.PutTree([]object.TreeEntry{{Name: "s", Mode: filemode.Regular, Hash: small}, {Name: "b", Mode: filemode.Regular, Hash: big}})
	if err != nil {
		t.Fatal(err)
	}
	if mem.HasEncodedObject(big) != nil {
		t.Error("the big blob was held instead of stored")
	}
	if mem.HasEncodedObject(small) == nil || mem.HasEncodedObject(tree) == nil {
		t.Error("held objects reached the storage before Flush")
	}
	es, err := s.Tree(tree)
	if err != nil || len(es) != 2 || es[0].Name != "b" {
		t.Errorf("Tree of a held tree = %v %v", es, err)
	}
	if data, err := s.Blob(small); err != nil || string(data) != "small\n" {
		t.Errorf("Blob of a held blob = %q %v", data, err)
	}
	if err := s.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := s.Flush(); err != nil || len(packed) != 1 || len(packed[0]) != 2 {
		t.Fatalf("Pack calls after two Flushes: %d, objects %v", len(packed), packed)
	}
	for i, want := range []plumbing.Hash{small, tree} {
		o := packed[0][i]
		mo := &plumbing.MemoryObject{}
		mo.SetType(plumbing.ObjectType(o.Type))
		mo.Write(o.Data)
		if mo.Hash() != want {
			t.Errorf("packed object %d hashes to %s under go-git, want %s", i, mo.Hash(), want)
		}
	}
}
