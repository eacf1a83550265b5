//go:build !linux

package fsres

import "io/fs"

// A stamp tells whether a file changed: its size and modification time. A
// directory's mtime moves when an entry is added, removed or renamed.
type stamp struct {
	size  int64
	mtime int64
	ok    bool
}

func stampInfo(info fs.FileInfo) stamp {
	return stamp{size: info.Size(), mtime: info.ModTime().UnixNano(), ok: true}
}
