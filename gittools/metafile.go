package gittools

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/grove-mcp/grove/roots"
)

// maxMetaFile bounds what we read of git's small metadata files (.git, commondir, alternates, config).
const maxMetaFile = 1 << 20

// readSmall reads a regular file of at most maxMetaFile bytes; anything else (a bigger file is not cut, it is
// refused), and a file that is (or links to something) outside sc, is an error.
func readSmall(sc *roots.Scope, p string) ([]byte, error) {
	fi, err := os.Lstat(p)
	if err == nil && sc != nil && !sc.ContainsReal(p) {
		return nil, errOutsideMeta
	}
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		// a symlinked config is common enough (dotfile managers); follow it, but only to a regular file
		if fi, err = os.Stat(p); err != nil || !fi.Mode().IsRegular() {
			return nil, errNotRegularMeta
		}
	}
	f, err := os.OpenFile(p, os.O_RDONLY|openNoBlock, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return nil, errNotRegularMeta // swapped since the check above
	}
	data, err := io.ReadAll(io.LimitReader(f, maxMetaFile+1))
	if err == nil && len(data) > maxMetaFile {
		return nil, errTooBigMeta
	}
	return data, err
}

// openRegular opens name in root for reading without blocking (openNoBlock) and refuses anything but a regular
// file: a crafted repository's index, config, commit-graph or object could be a FIFO, whose plain open waits
// for a writer forever, holding the repository's lock.
func openRegular(root *os.Root, name string) (*os.File, error) {
	f, err := root.OpenFile(name, os.O_RDONLY|openNoBlock, 0)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = fmt.Errorf("%s: %w", filepath.ToSlash(name), errNotRegularMeta)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// openRegularIn is openRegular in the directory dir.
func openRegularIn(dir, name string) (*os.File, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	return openRegular(root, name)
}

func firstLine(sc *roots.Scope, p string) (string, bool) {
	data, err := readSmall(sc, p)
	if err != nil {
		return "", false
	}
	line, _, _ := strings.Cut(string(data), "\n")
	return strings.TrimSpace(line), true
}

var (
	errNotRegularMeta = errors.New("not a regular file")
	errOutsideMeta    = errors.New("outside the roots")
	errTooBigMeta     = fmt.Errorf("larger than %s", sizeText(maxMetaFile))
)
