// Package dtype reads the linux_dirent64 records getdents64 fills: their d_type as a file mode type, and
// the records themselves.
package dtype

import (
	"bytes"
	"encoding/binary"
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

// Each calls fn for every linux_dirent64 record in buf (what one getdents64 call filled), in order, with its
// d_off, its d_type and its name (without the NUL; it aliases buf). Records of deleted entries (inode 0),
// "." and ".." are left out. It stops at a record whose length is impossible.
func Each(buf []byte, fn func(off int64, typ byte, name []byte)) {
	// d_ino 8 bytes, d_off 8, d_reclen 2, d_type 1, then the name up to a NUL.
	for len(buf) >= 19 {
		reclen := int(binary.NativeEndian.Uint16(buf[16:]))
		if reclen < 19 || reclen > len(buf) {
			return
		}
		r := buf[:reclen]
		buf = buf[reclen:]
		name := r[19:]
		if i := bytes.IndexByte(name, 0); i >= 0 {
			name = name[:i]
		}
		if binary.NativeEndian.Uint64(r) == 0 || len(name) == 0 || string(name) == "." || string(name) == ".." {
			continue
		}
		fn(int64(binary.NativeEndian.Uint64(r[8:])), r[18], name)
	}
}
