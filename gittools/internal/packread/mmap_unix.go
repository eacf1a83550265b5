//go:build unix

package packread

import (
	"os"
	"syscall"
)

// mapFile maps size bytes of f read-only; nil (and the caller reads with pread) when it cannot.
func mapFile(f *os.File, size int64) []byte {
	if size <= 0 || int64(int(size)) != size {
		return nil
	}
	data, err := syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil
	}
	return data
}

func unmap(data []byte) {
	if data != nil {
		syscall.Munmap(data)
	}
}
