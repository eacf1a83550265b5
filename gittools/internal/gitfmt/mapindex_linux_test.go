package gitfmt

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMappedIndexCutShort: an index cut short after it was mapped makes the parse fault; ReadIndex says so
// instead of crashing.
func TestMappedIndexCutShort(t *testing.T) {
	dir := t.TempDir()
	writeBigIndex(t, dir, 3000)
	mapped := false
	testHookMapped = func() {
		mapped = true
		if err := os.Truncate(filepath.Join(dir, "index"), 4096); err != nil {
			t.Error(err)
		}
	}
	t.Cleanup(func() { testHookMapped = nil })
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	idx, err := ReadIndex(root, "index")
	if !mapped {
		t.Fatal("the index was not mapped")
	}
	if err == nil || !strings.Contains(err.Error(), "cut short") {
		t.Fatalf("ReadIndex of an index cut short = %v entries, %v; want the error that it was cut short", idx != nil, err)
	}
}
