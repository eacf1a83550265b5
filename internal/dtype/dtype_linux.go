// Package dtype maps the d_type of a linux_dirent64 record (getdents64) to a file mode type.
package dtype

import (
	"io/fs"
	"syscall"
)

// Mode returns the type bits for d_type t, and false when the file system did not give one (DT_UNKNOWN) or
// gave one fs.FileMode has no name for: the caller then lstats the entry.
func Mode(t byte) (fs.FileMode, bool) {
	switch t {
	case syscall.DT_REG:
		return 0, true
	case syscall.DT_DIR:
		return fs.ModeDir, true
	case syscall.DT_LNK:
		return fs.ModeSymlink, true
	case syscall.DT_FIFO:
		return fs.ModeNamedPipe, true
	case syscall.DT_SOCK:
		return fs.ModeSocket, true
	case syscall.DT_CHR:
		return fs.ModeDevice | fs.ModeCharDevice, true
	case syscall.DT_BLK:
		return fs.ModeDevice, true
	}
	return 0, false
}
