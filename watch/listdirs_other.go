//go:build !linux

package watch

import (
	"errors"
	"io"
	"os"
)

// listDirs calls fn with the name of each subdirectory of dir (not following symlinks), in the order the
// file system lists them.
func listDirs(dir string, fn func(name string)) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer f.Close()
	for {
		es, err := f.ReadDir(1024)
		for _, e := range es {
			if e.IsDir() {
				fn(e.Name())
			}
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
	}
}
