package repo

import (
	"errors"
	"io"
	"sync"

	"github.com/go-git/go-billy/v5"
)

// packWindow is how much of a pack file one read system call brings in.
const packWindow = 64 << 10

// windowFile serves a pack file's reads from a window of packWindow bytes,
// filled with one positioned read. go-git reads a pack object by seeking to
// its offset and reading its header and compressed data through a fresh
// buffer, two system calls or more an object; the objects a history walk
// reads lie close together, so most seeks now land in the window and cost
// none (a first path-limited git_log on 20,000 commits spent a third of its
// time in those calls). Seeks only move the position; nothing is read until
// a read needs it.
type windowFile struct {
	billy.File

	mu  sync.Mutex // guards the fields below (go-git reads a pack under the repository lock, but cheaply safe)
	pos int64      // the position Read continues from
	buf []byte     // the window: the file's bytes from off, len(buf) of them
	off int64
}

func newWindowFile(f billy.File) *windowFile { return &windowFile{File: f} }

func (w *windowFile) Read(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(p) == 0 {
		return 0, nil
	}
	if w.pos < w.off || w.pos >= w.off+int64(len(w.buf)) {
		if len(p) >= packWindow {
			n, err := w.File.ReadAt(p, w.pos)
			w.pos += int64(n)
			if err == io.EOF && n > 0 {
				err = nil
			}
			return n, err
		}
		if err := w.fill(); err != nil {
			return 0, err
		}
	}
	n := copy(p, w.buf[w.pos-w.off:])
	w.pos += int64(n)
	return n, nil
}

// fill reads the window at pos. At the end of the file it returns io.EOF.
func (w *windowFile) fill() error {
	if w.buf == nil {
		w.buf = make([]byte, packWindow)
	}
	n, err := w.File.ReadAt(w.buf[:cap(w.buf)], w.pos)
	w.buf, w.off = w.buf[:n], w.pos
	if n > 0 {
		return nil
	}
	if err == nil {
		err = io.EOF
	}
	return err
}

func (w *windowFile) Seek(offset int64, whence int) (int64, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	switch whence {
	case io.SeekStart:
	case io.SeekCurrent:
		offset += w.pos
	default: // from the end: only the file knows its size
		n, err := w.File.Seek(offset, whence)
		if err != nil {
			return w.pos, err
		}
		w.pos = n
		return n, nil
	}
	if offset < 0 {
		return w.pos, errNegativeSeek
	}
	w.pos = offset
	return offset, nil
}

var errNegativeSeek = errors.New("seek to a negative offset in a pack file")
