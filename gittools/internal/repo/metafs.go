package repo

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/grove-mcp/grove/gittools/internal/gitfmt"

	"github.com/grove-mcp/grove/gittools/internal/patchtext"

	"github.com/go-git/go-billy/v5"
)

// maxPackedRefs bounds .git/packed-refs: about a million refs (a line is some 60 bytes). go-git scans the file
// on every ref lookup it cannot answer from a loose ref.
const maxPackedRefs = 64 << 20

// boundedFS is the git dir as go-git's storage sees it, with every file go-git reads there bounded: HEAD, refs,
// config and the like at maxMetaFile, packed-refs at maxPackedRefs. go-git reads refs whole (io.ReadAll), so a
// crafted 1 GiB loose ref would otherwise cost 1 GiB. Objects are not bounded here (objects/info/ is): pack
// files are big by nature, and objectStore sizes objects itself. Reads past a limit fail with a *refusedFile, reported through
// refused.
type boundedFS struct {
	billy.Filesystem
	refused func(error)
}

func (b boundedFS) Open(name string) (billy.File, error) { return b.OpenFile(name, os.O_RDONLY, 0) }

func (b boundedFS) OpenFile(name string, flag int, perm os.FileMode) (billy.File, error) {
	if flag&(os.O_WRONLY|os.O_RDWR) == 0 {
		// A FIFO would block the open (and the repository's lock) forever: refuse what is not a regular file.
		if fi, err := b.Filesystem.Stat(name); err == nil && !fi.Mode().IsRegular() && !fi.IsDir() {
			return nil, b.refuse(name, "it is not a regular file")
		}
	}
	f, err := b.Filesystem.OpenFile(name, flag, perm)
	if err != nil || flag&(os.O_WRONLY|os.O_RDWR) != 0 {
		return f, err
	}
	rel := filepath.ToSlash(filepath.Clean(name))
	if strings.HasPrefix(rel, "objects/pack/") && strings.HasSuffix(rel, ".pack") {
		return newWindowFile(f), nil
	}
	if strings.HasPrefix(rel, "objects/") && !strings.HasPrefix(rel, "objects/info/") {
		return f, nil // pack indexes and loose objects
	}
	limit := int64(maxMetaFile)
	if rel == "packed-refs" {
		limit = maxPackedRefs
	}
	return &boundedFile{File: f, fs: b, rel: rel, limit: limit}, nil
}

// boundedFile fails a read that would take it past limit bytes.
type boundedFile struct {
	billy.File
	fs    boundedFS
	rel   string
	limit int64
	read  int64
}

func (f *boundedFile) Read(p []byte) (int, error) {
	n, err := f.File.Read(p)
	if f.read += int64(n); f.read > f.limit {
		return 0, f.over()
	}
	return n, err
}

func (f *boundedFile) ReadAt(p []byte, off int64) (int, error) {
	if off+int64(len(p)) > f.limit {
		return 0, f.over()
	}
	return f.File.ReadAt(p, off)
}

func (f *boundedFile) over() error {
	return f.fs.refuse(f.rel, fmt.Sprintf("it is over the %s limit grove reads", patchtext.SizeText(f.limit)))
}

// refuse reports and returns the refusal of the git dir's file name.
func (b boundedFS) refuse(name, reason string) error {
	err := &gitfmt.RefusedFile{File: ".git/" + filepath.ToSlash(filepath.Clean(name)), Reason: reason}
	if b.refused != nil {
		b.refused(err)
	}
	return err
}
