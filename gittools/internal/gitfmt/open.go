package gitfmt

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// ErrNotRegular refuses a repository file that is not a regular file.
var ErrNotRegular = errors.New("not a regular file")

// OpenRegular opens name in root for reading without blocking (OpenNoBlock) and refuses anything but a regular
// file: a crafted repository's index, config, commit-graph or object could be a FIFO, whose plain open waits
// for a writer forever, holding the repository's lock.
func OpenRegular(root *os.Root, name string) (*os.File, error) {
	f, err := root.OpenFile(name, os.O_RDONLY|OpenNoBlock, 0)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = fmt.Errorf("%s: %w", filepath.ToSlash(name), ErrNotRegular)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}
