//go:build !linux

package ignore

import (
	"io/fs"
	"os"
)

// readDirents lists the directory open as f.
func readDirents(f *os.File, _ *os.Root, _ string) ([]fs.DirEntry, error) {
	return f.ReadDir(-1)
}
