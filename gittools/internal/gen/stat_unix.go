//go:build unix

package gen

import (
	"io/fs"
	"syscall"

	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// statInfo records the inode data git keeps in the index.
func statInfo(e *index.Entry, fi fs.FileInfo) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		e.Dev, e.Inode, e.UID, e.GID = uint32(st.Dev), uint32(st.Ino), st.Uid, st.Gid
	}
}
