package packread

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/grove-mcp/grove/gittools/internal/gittest"
	"github.com/grove-mcp/grove/gittools/internal/packwrite"
)

// TestAddSeesNewPack writes a pack after the reader loaded its list (and after it found no pack directory
// at all): the reader does not see it until Add, then reads it.
func TestAddSeesNewPack(t *testing.T) {
	f := gittest.New(t)
	git, err := os.OpenRoot(filepath.Join(f.Dir, ".git"))
	if err != nil {
		t.Fatal(err)
	}
	defer git.Close()
	r := OpenIn(git, filepath.Join("objects", "pack"))
	defer r.Close()
	if err := os.RemoveAll(filepath.Join(f.Dir, ".git", "objects", "pack")); err != nil {
		t.Fatal(err)
	}
	if err := r.Load(); err != nil {
		t.Fatal(err)
	}
	for i, data := range []string{"first\n", "second\n"} {
		o := packwrite.Object{Type: packwrite.Blob, Data: []byte(data)}
		p, err := packwrite.Encode([]packwrite.Object{o})
		if err != nil {
			t.Fatal(err)
		}
		dir := filepath.Join(f.Dir, ".git", "objects", "pack")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for ext, b := range map[string][]byte{".pack": p.Pack, ".idx": p.Index} {
			if err := os.WriteFile(filepath.Join(dir, p.Name+ext), b, 0o444); err != nil {
				t.Fatal(err)
			}
		}
		if r.Has(o.Name()) {
			t.Fatalf("pack %d seen before Add", i)
		}
		if err := r.Add(p.Name); err != nil {
			t.Fatal(err)
		}
		if err := r.Add(p.Name); err != nil {
			t.Fatalf("second Add of the same pack: %v", err)
		}
		typ, got, err := r.Read(o.Name(), func(Type) int64 { return 1 << 20 })
		if err != nil || typ != Blob || string(got) != data {
			t.Fatalf("Read after Add = %v %q %v, want blob %q", typ, got, err, data)
		}
	}
	if len(r.packs) != 2 || r.packs[0].id == r.packs[1].id {
		t.Errorf("packs after two Adds: %d, ids must differ", len(r.packs))
	}
}
