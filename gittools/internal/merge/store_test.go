package merge

import (
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/google/go-cmp/cmp"
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
