package stamp

import (
	"os"
	"path/filepath"
	"testing"
)

func TestStampMoves(t *testing.T) {
	dir := t.TempDir()
	r, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if At(r, "a.txt") != (Stamp{}) {
		t.Fatal("a missing file has a non-zero stamp")
	}
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("one"), 0o644); err != nil {
		t.Fatal(err)
	}
	file, top := At(r, "a.txt"), At(r, ".")
	if file == (Stamp{}) || At(r, "a.txt") != file {
		t.Fatalf("stamp of an unchanged file: %+v then %+v", file, At(r, "a.txt"))
	}
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("three"), 0o644); err != nil {
		t.Fatal(err)
	}
	if At(r, "a.txt") == file {
		t.Error("a rewritten file kept its stamp")
	}
	if err := os.Rename(filepath.Join(dir, "a.txt"), filepath.Join(dir, "b.txt")); err != nil {
		t.Fatal(err)
	}
	if At(r, ".") == top {
		t.Error("a directory whose entry was renamed kept its stamp")
	}
	if Of(nil) != (Stamp{}) {
		t.Error("Of(nil) is not the zero stamp")
	}
}
