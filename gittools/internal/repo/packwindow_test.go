package repo

import (
	"bytes"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/go-git/go-billy/v5/osfs"
)

// TestWindowFileReadsAsTheFile: any sequence of seeks and reads of every size
// gives the bytes, positions and end of file that the file itself gives.
func TestWindowFileReadsAsTheFile(t *testing.T) {
	dir := t.TempDir()
	data := make([]byte, 3*packWindow+1234)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range data {
		data[i] = byte(rng.Uint32())
	}
	if err := os.WriteFile(filepath.Join(dir, "p.pack"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	fs := osfs.New(dir)
	plain, err := fs.Open("p.pack")
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()
	inner, err := fs.Open("p.pack")
	if err != nil {
		t.Fatal(err)
	}
	defer inner.Close()
	w := newWindowFile(inner)
	for step := range 5000 {
		switch rng.IntN(4) {
		case 0: // seek somewhere, the end and a little beyond included
			off := rng.Int64N(int64(len(data)) + 10)
			whence := io.SeekStart
			if rng.IntN(5) == 0 {
				whence, off = io.SeekEnd, -rng.Int64N(int64(len(data)))
			}
			a, errA := plain.Seek(off, whence)
			b, errB := w.Seek(off, whence)
			if a != b || (errA == nil) != (errB == nil) {
				t.Fatalf("step %d: Seek(%d, %d) = %d, %v; the file says %d, %v", step, off, whence, b, errB, a, errA)
			}
		case 1: // where are we
			a, _ := plain.Seek(0, io.SeekCurrent)
			b, _ := w.Seek(0, io.SeekCurrent)
			if a != b {
				t.Fatalf("step %d: position %d, the file says %d", step, b, a)
			}
		default:
			size := []int{1, 7, 100, 4096, packWindow - 1, packWindow, 2 * packWindow}[rng.IntN(7)]
			pa, pb := make([]byte, size), make([]byte, size)
			na, errA := io.ReadFull(plain, pa)
			nb, errB := io.ReadFull(w, pb)
			if na != nb || !bytes.Equal(pa[:na], pb[:nb]) || (errA == nil) != (errB == nil) {
				t.Fatalf("step %d: read %d bytes, %v; the file gave %d, %v (same bytes: %v)", step, nb, errB, na, errA, bytes.Equal(pa[:na], pb[:nb]))
			}
		}
	}
	if _, err := w.Seek(-1, io.SeekStart); err == nil {
		t.Error("a seek to -1 succeeded")
	}
}
