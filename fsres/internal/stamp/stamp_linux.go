//go:build linux

package stamp

import (
	"io/fs"
	"syscall"
)

// A Stamp tells whether a file changed: its identity, size and times. A
// directory's mtime moves when an entry is added, removed or renamed.
type Stamp struct {
	dev, ino    uint64
	size        int64
	mtime, ctim int64
	ok          bool
}

func of(info fs.FileInfo) Stamp {
	s := Stamp{size: info.Size(), mtime: info.ModTime().UnixNano(), ok: true}
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		s.dev, s.ino = uint64(st.Dev), uint64(st.Ino)
		s.ctim = st.Ctim.Nano()
	}
	return s
}
