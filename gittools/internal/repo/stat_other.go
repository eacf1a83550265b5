//go:build !linux

package repo

import (
	"io/fs"

	"github.com/grove-mcp/grove/gittools/internal/gitfmt"
)

func Inode(fs.FileInfo) uint64 { return 0 }

func KeyOf(fi fs.FileInfo) statKey {
	return statKey{mtime: fi.ModTime().UnixNano(), size: fi.Size(), mode: uint32(fi.Mode())}
}

func StatMatches(e gitfmt.IndexEntry, fi fs.FileInfo) bool {
	mt := fi.ModTime()
	return uint32(mt.Unix()) == e.MtimeS && uint32(mt.Nanosecond()) == e.MtimeNs && uint32(fi.Size()) == e.Size
}
