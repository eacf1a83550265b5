//go:build !linux

package repo

import (
	"io/fs"

	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// FillStat copies the stat data git keeps in an index entry. Where ctime, inode and owner are not read, git
// compares the content once and refreshes the entry itself.
func FillStat(e *index.Entry, fi fs.FileInfo) {
	e.ModifiedAt = fi.ModTime()
	e.Size = uint32(fi.Size())
}
