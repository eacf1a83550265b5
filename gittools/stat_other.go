//go:build !linux

package gittools

import (
	"io/fs"

	"github.com/grove-mcp/grove/gittools/internal/gitfmt"
)

func inode(fs.FileInfo) uint64 { return 0 }

func keyOf(fi fs.FileInfo) statKey {
	return statKey{mtime: fi.ModTime().UnixNano(), size: fi.Size(), mode: uint32(fi.Mode())}
}

func statMatches(e gitfmt.IndexEntry, fi fs.FileInfo) bool {
	mt := fi.ModTime()
	return uint32(mt.Unix()) == e.MtimeS && uint32(mt.Nanosecond()) == e.MtimeNs && uint32(fi.Size()) == e.Size
}
