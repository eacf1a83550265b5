//go:build linux

package repo

import (
	"io/fs"
	"syscall"
	"time"

	"github.com/go-git/go-git/v5/plumbing/format/index"

	"github.com/grove-mcp/grove/gittools/internal/gitfmt"
)

// Inode returns the inode number of fi, or 0 where the platform has none.
func Inode(fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Ino)
	}
	return 0
}

// KeyOf returns the stat data we use to recognise unchanged content.
func KeyOf(fi fs.FileInfo) statKey {
	k := statKey{mtime: fi.ModTime().UnixNano(), size: fi.Size(), mode: uint32(fi.Mode())}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		k.ctime = st.Ctim.Sec*1e9 + st.Ctim.Nsec
		k.ino = uint64(st.Ino)
	}
	return k
}

// StatMatches compares the stat data git records in the index with fi (mtime, ctime, inode, size).
func StatMatches(e gitfmt.IndexEntry, fi fs.FileInfo) bool {
	mt := fi.ModTime()
	if uint32(mt.Unix()) != e.MtimeS || uint32(mt.Nanosecond()) != e.MtimeNs || uint32(fi.Size()) != e.Size {
		return false
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		if uint32(st.Ctim.Sec) != e.CtimeS || uint32(st.Ctim.Nsec) != e.CtimeNs || uint32(st.Ino) != e.Ino {
			return false
		}
	}
	return true
}

// FillStat copies the stat data git keeps in an index entry, so that git sees the entry as clean without
// re-reading the file.
func FillStat(e *index.Entry, fi fs.FileInfo) {
	e.ModifiedAt = fi.ModTime()
	e.Size = uint32(fi.Size())
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return
	}
	e.CreatedAt = time.Unix(st.Ctim.Sec, st.Ctim.Nsec)
	e.Dev, e.Inode = uint32(st.Dev), uint32(st.Ino)
	e.UID, e.GID = st.Uid, st.Gid
}
