//go:build !linux

package gittools

import "io/fs"

func inode(fs.FileInfo) uint64 { return 0 }

func keyOf(fi fs.FileInfo) statKey {
	return statKey{mtime: fi.ModTime().UnixNano(), size: fi.Size(), mode: uint32(fi.Mode())}
}

func statMatches(e indexEntry, fi fs.FileInfo) bool {
	mt := fi.ModTime()
	return uint32(mt.Unix()) == e.mtimeS && uint32(mt.Nanosecond()) == e.mtimeNs && uint32(fi.Size()) == e.size
}
