package packwrite

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/grove-mcp/grove/gittools/internal/gittest"
)

// TestPackReadByGit writes a pack of every type and sizes around the header's byte boundaries into a
// repository, and checks it with git: verify-pack accepts it, cat-file prints each object as packed, and
// index-pack, given the pack alone, builds the very index Encode built.
func TestPackReadByGit(t *testing.T) {
	f := gittest.New(t)
	blob := Object{Type: Blob, Data: []byte("hello\n")}
	bn := blob.Name()
	tree := Object{Type: Tree, Data: append([]byte("100644 hello.txt\x00"), bn[:]...)}
	tn := tree.Name()
	commit := Object{Type: Commit, Data: fmt.Appendf(nil, "tree %x\nauthor A <a@x> 1700000000 +0000\ncommitter A <a@x> 1700000000 +0000\n\nm\n", tn)}
	cn := commit.Name()
	tag := Object{Type: Tag, Data: fmt.Appendf(nil, "object %x\ntype commit\ntag v1\ntagger A <a@x> 1700000000 +0000\n\nt\n", cn)}
	objs := []Object{blob, tree, commit, tag, blob} // blob twice: packed once
	for _, size := range []int{0, 15, 16, 2047, 2048, 1 << 18} {
		objs = append(objs, Object{Type: Blob, Data: bytes.Repeat([]byte{'a' + byte(size%26)}, size)})
	}
	p, err := Encode(objs)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(f.Dir, ".git", "objects", "pack")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for ext, data := range map[string][]byte{".pack": p.Pack, ".idx": p.Index} {
		if err := os.WriteFile(filepath.Join(dir, p.Name+ext), data, 0o444); err != nil {
			t.Fatal(err)
		}
	}
	out := f.Git("verify-pack", "-v", filepath.Join(dir, p.Name+".idx"))
	if n := strings.Count(out, "\n"); n < len(objs)-1 {
		t.Errorf("verify-pack listed %d lines for %d distinct objects:\n%s", n, len(objs)-1, out)
	}
	for _, o := range objs {
		n := o.Name()
		name := hex.EncodeToString(n[:])
		if got := strings.TrimSpace(f.Git("cat-file", "-t", name)); got != o.Type.String() {
			t.Errorf("cat-file -t %s = %q, want %q", name, got, o.Type)
		}
		if got := f.Git("cat-file", o.Type.String(), name); got != string(o.Data) {
			t.Errorf("cat-file %s %s: %d bytes differ from the %d packed", o.Type, name, len(got), len(o.Data))
		}
	}
	other := filepath.Join(t.TempDir(), "copy.pack")
	if err := os.WriteFile(other, p.Pack, 0o644); err != nil {
		t.Fatal(err)
	}
	if got := "pack-" + strings.TrimSpace(f.Git("index-pack", other)); got != p.Name {
		t.Errorf("git names the pack %s, Encode %s", got, p.Name)
	}
	idx, err := os.ReadFile(strings.TrimSuffix(other, ".pack") + ".idx")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(idx, p.Index) {
		t.Errorf("git index-pack built a different index (%d bytes) from Encode's (%d bytes)", len(idx), len(p.Index))
	}
}

func TestEncodeRefusesBadType(t *testing.T) {
	if _, err := Encode([]Object{{Type: 5, Data: nil}}); err == nil || !strings.Contains(err.Error(), "type 5") {
		t.Errorf("Encode of type 5: %v, want an error naming the type", err)
	}
}

func TestObjectHeader(t *testing.T) {
	for _, tt := range []struct {
		t    Type
		size int
		want []byte
	}{
		{Blob, 0, []byte{0x30}},
		{Blob, 15, []byte{0x3f}},
		{Tree, 16, []byte{0xa0, 0x01}},
		{Commit, 2047, []byte{0x9f, 0x7f}},
		{Commit, 2048, []byte{0x90, 0x80, 0x01}},
	} {
		if got := objectHeader(tt.t, tt.size); !bytes.Equal(got, tt.want) {
			t.Errorf("objectHeader(%s, %d) = %x, want %x", tt.t, tt.size, got, tt.want)
		}
	}
}
