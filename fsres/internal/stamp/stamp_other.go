//go:build !linux

package stamp

import "io/fs"

// A Stamp tells whether a file changed: its size and modification time. A
// directory's mtime moves when an entry is added, removed or renamed.
type Stamp struct {
	size  int64
	mtime int64
	ok    bool
}

func of(info fs.FileInfo) Stamp {
	return Stamp{size: info.Size(), mtime: info.ModTime().UnixNano(), ok: true}
}
