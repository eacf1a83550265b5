//go:build !linux

package repo

import (
	"io/fs"

	"github.com/go-git/go-git/v5/plumbing/format/index"

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

// FillStat copies the stat data git keeps in an index entry. Where ctime, inode and owner are not read, git
// compares the content once and refreshes the entry itself.
func FillStat(e *index.Entry, fi fs.FileInfo) {
	e.ModifiedAt = fi.ModTime()
	e.Size = uint32(fi.Size())
}
