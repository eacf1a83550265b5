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

// openDir opens directory name in parent for listing.
func openDir(parent *os.Root, name string) (*os.File, error) {
	return parent.Open(name)
}
