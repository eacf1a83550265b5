package trigram

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// Matcher is what a [DirTree] needs of the tree's .gitignore matcher (ignore.Matcher).
type Matcher interface {
	// Walk visits the non-ignored entries of the whole tree in walk order.
	Walk(ctx context.Context, fn func(rel string, d fs.DirEntry) error) error
	Ignored(rel string, isDir bool) bool
	Invalidate()
}

// binaryProbe is how much of a file's start is checked for a NUL byte, git's rule for binary files
// and grep's.
const binaryProbe = 8000

// DirTree is the [Tree] of a root directory opened as fsys, walked with m; files above maxRead
// bytes, or with a NUL byte in their first 8000, are skipped, as grep skips them.
type DirTree struct {
	FS      *os.Root
	Matcher Matcher
	MaxRead int64
}

// Walk implements [Tree]: the matcher walks the whole tree, skipping the subtrees that cannot hold dir.
func (t DirTree) Walk(ctx context.Context, dir string, fn func(rel string, d fs.DirEntry) error) error {
	return t.Matcher.Walk(ctx, func(rel string, d fs.DirEntry) error {
		switch {
		case rel == dir:
			return nil
		case Within(rel, dir):
			return fn(rel, d)
		case d.IsDir() && Within(dir, rel):
			return nil // on the way down to dir
		case d.IsDir():
			return fs.SkipDir
		}
		return nil
	})
}

var errNotRegular = errors.New("not a regular file")

// Read implements [Tree]. A FIFO or device is never opened: the file is checked first with lstat,
// and opened without blocking in case one was swapped in.
func (t DirTree) Read(rel string) ([]byte, bool, error) {
	if fi, err := t.FS.Lstat(rel); err != nil || !fi.Mode().IsRegular() {
		return nil, false, errors.Join(err, errNotRegular)
	}
	f, err := t.FS.OpenFile(rel, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	fi, err := f.Stat()
	switch {
	case err != nil:
		return nil, false, err
	case !fi.Mode().IsRegular():
		return nil, false, errNotRegular
	case fi.Size() > t.MaxRead:
		return nil, true, nil
	}
	data, err := readSized(f, fi.Size(), t.MaxRead)
	switch {
	case err != nil:
		return nil, false, err
	case int64(len(data)) > t.MaxRead || bytes.IndexByte(data[:min(len(data), binaryProbe)], 0) >= 0:
		return nil, true, nil
	}
	return data, false, nil
}

// Lstat implements [Tree].
func (t DirTree) Lstat(rel string) (fs.FileMode, error) {
	fi, err := t.FS.Lstat(rel)
	if err != nil {
		return 0, err
	}
	return fi.Mode(), nil
}

// Ignored implements [Tree].
func (t DirTree) Ignored(rel string, isDir bool) bool { return t.Matcher.Ignored(rel, isDir) }

// Invalidate implements [Tree].
func (t DirTree) Invalidate() { t.Matcher.Invalidate() }

// readSized reads f, of size bytes by fstat, in one allocation; a file that grew meanwhile is read
// on, up to limit+1 bytes.
func readSized(f *os.File, size, limit int64) ([]byte, error) {
	buf := make([]byte, size+1) // +1 notices a file that grew
	n, err := io.ReadFull(f, buf)
	switch {
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		return buf[:n], nil
	case err != nil:
		return nil, err
	}
	rest, err := io.ReadAll(io.LimitReader(f, limit+1-int64(n)))
	return append(buf, rest...), err
}
