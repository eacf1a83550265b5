package repo

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/grove-mcp/grove/gittools/internal/gitfmt"
	"github.com/grove-mcp/grove/gittools/internal/patchtext"

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
	f, err := os.OpenFile(p, os.O_RDONLY|gitfmt.OpenNoBlock, 0)
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

func firstLine(sc *roots.Scope, p string) (string, bool) {
	data, err := readSmall(sc, p)
	if err != nil {
		return "", false
	}
	line, _, _ := strings.Cut(string(data), "\n")
	return strings.TrimSpace(line), true
}

var (
	errNotRegularMeta = gitfmt.ErrNotRegular
	errOutsideMeta    = errors.New("outside the roots")
	errTooBigMeta     = fmt.Errorf("larger than %s", patchtext.SizeText(maxMetaFile))
)
