package dtype

import (
	"encoding/binary"
	"io/fs"
	"slices"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestMode(t *testing.T) {
	for _, tt := range []struct {
		t     byte
		want  fs.FileMode
		known bool
	}{
		{syscall.DT_REG, 0, true},
		{syscall.DT_DIR, fs.ModeDir, true},
		{syscall.DT_LNK, fs.ModeSymlink, true},
		{syscall.DT_FIFO, fs.ModeNamedPipe, true},
		{syscall.DT_SOCK, fs.ModeSocket, true},
		{syscall.DT_CHR, fs.ModeDevice | fs.ModeCharDevice, true},
		{syscall.DT_BLK, fs.ModeDevice, true},
		{syscall.DT_UNKNOWN, 0, false},
		{syscall.DT_WHT, 0, false},
	} {
		if got, known := Mode(tt.t); got != tt.want || known != tt.known {
			t.Errorf("Mode(%d) = %v, %v; want %v, %v", tt.t, got, known, tt.want, tt.known)
		}
	}
}

// record builds one linux_dirent64 record, padded to 8 bytes as the kernel does.
func record(ino uint64, off int64, typ byte, name string) []byte {
	n := (19 + len(name) + 1 + 7) &^ 7
	r := make([]byte, n)
	binary.NativeEndian.PutUint64(r, ino)
	binary.NativeEndian.PutUint64(r[8:], uint64(off))
	binary.NativeEndian.PutUint16(r[16:], uint16(n))
	r[18] = typ
	copy(r[19:], name)
	return r
}

func TestEach(t *testing.T) {
	type rec struct {
		Off  int64
		Typ  byte
		Name string
	}
	buf := slices.Concat(
		record(1, 10, syscall.DT_DIR, "."),
		record(2, 20, syscall.DT_DIR, ".."),
		record(3, 30, syscall.DT_REG, "a.txt"),
		record(0, 40, syscall.DT_REG, "deleted"),
		record(5, 50, syscall.DT_DIR, "a-longer-directory-name"),
		record(6, 60, syscall.DT_UNKNOWN, "u"),
	)
	want := []rec{{30, syscall.DT_REG, "a.txt"}, {50, syscall.DT_DIR, "a-longer-directory-name"}, {60, syscall.DT_UNKNOWN, "u"}}
	var got []rec
	Each(buf, func(off int64, typ byte, name []byte) { got = append(got, rec{off, typ, string(name)}) })
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Each (-want +got):\n%s", diff)
	}
	// A record claiming more bytes than the buffer holds ends the reading; what came before it stands.
	bad := record(7, 70, syscall.DT_REG, "b")
	binary.NativeEndian.PutUint16(bad[16:], 500)
	got = nil
	Each(slices.Concat(record(3, 30, syscall.DT_REG, "a.txt"), bad), func(off int64, typ byte, name []byte) {
		got = append(got, rec{off, typ, string(name)})
	})
	if diff := cmp.Diff(want[:1], got); diff != "" {
		t.Errorf("Each with a bad record length (-want +got):\n%s", diff)
	}
}
