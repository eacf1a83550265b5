//go:build linux

package fsres

import (
	"io/fs"
	"syscall"
)

// A stamp tells whether a file changed: its identity, size and times. A
// directory's mtime moves when an entry is added, removed or renamed.
type stamp struct {
	dev, ino    uint64
	size        int64
	mtime, ctim int64
	ok          bool
}

func stampInfo(info fs.FileInfo) stamp {
	s := stamp{size: info.Size(), mtime: info.ModTime().UnixNano(), ok: true}
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		s.dev, s.ino = uint64(st.Dev), uint64(st.Ino)
		s.ctim = st.Ctim.Nano()
	}
	return s
}
