package dtype

import (
	"io/fs"
	"syscall"
	"testing"
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
