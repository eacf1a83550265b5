package gitfmt

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// writeBigIndex writes an index of n entries (with a cache tree's worth of directories) as dir/index and
// returns its bytes.
func writeBigIndex(t *testing.T, dir string, n int) []byte {
	t.Helper()
	idx := &index.Index{Version: 2}
	for i := range n {
		idx.Entries = append(idx.Entries, &index.Entry{
			Name: fmt.Sprintf("dir%03d/file%05d.txt", i/50, i), Mode: filemode.Regular, Size: uint32(i),
			Hash:       plumbing.NewHash(fmt.Sprintf("%040x", i+1)),
			ModifiedAt: time.Unix(int64(1e9+i), 0), CreatedAt: time.Unix(1e9, 0),
		})
	}
	var b bytes.Buffer
	if err := index.NewEncoder(&b).Encode(idx); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "index"), b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestReadIndexMappedAsRead: an index big enough to be mapped (where the system maps it) parses to what
// the same bytes parse to in memory. The comparison reads every field after ReadIndex has unmapped the file:
// one that still referred to its bytes would fault.
func TestReadIndexMappedAsRead(t *testing.T) {
	dir := t.TempDir()
	data := writeBigIndex(t, dir, 3000)
	if len(data) < minMapIndex {
		t.Fatalf("the index is %d bytes, under the %d mapped", len(data), minMapIndex)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	got, err := ReadIndex(root, "index")
	if err != nil {
		t.Fatal(err)
	}
	want, err := ParseIndex(bytes.Clone(data))
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Entries) != 3000 {
		t.Fatalf("%d entries, want 3000", len(got.Entries))
	}
	if diff := cmp.Diff(want.Entries, got.Entries); diff != "" {
		t.Errorf("entries mismatch (-read +mapped):\n%s", diff)
	}
	if diff := cmp.Diff(want, got, cmpopts.IgnoreUnexported(Index{}), cmpopts.IgnoreFields(Index{}, "Mtime", "Stat")); diff != "" {
		t.Errorf("index mismatch (-read +mapped):\n%s", diff)
	}
}
