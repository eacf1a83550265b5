package grep

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path"
	"sync"
)

// binaryProbe is how much of a file's start is checked for a NUL byte, the
// rule git uses to call a file binary.
const binaryProbe = 8000

// keptBuffer is the largest read buffer returned to the pool: bigger ones
// are left to the garbage collector, so a few huge files do not pin memory.
const keptBuffer = 4 << 20

var buffers = sync.Pool{New: func() any { b := make([]byte, 0, 64<<10); return &b }}

// An Opener opens the files a walk reports, by their path relative to the
// searched directory. Each worker gets its own; Close ends its use.
type Opener interface {
	Open(rel string) (*os.File, error)
	Close()
}

// DirOpener returns openers of files below the directory base
// (slash-separated, "." for the top) of fsys. Each keeps the last directory
// it opened, so a file costs one openat and files are opened beneath fsys
// only. Each call of DirOpener is one search: from a root's second on,
// the texts read are kept for the next (contents_linux.go).
func DirOpener(fsys *os.Root, base string) func() Opener {
	again := searchedBefore(fsys)
	epoch, gen := keptEpoch(), keptGen(fsys)
	return func() Opener { return &dirOpener{fsys: fsys, base: base, again: again, epoch: epoch, gen: gen} }
}

type dirOpener struct {
	fsys *os.Root
	base string
	dir  string   // of the last file opened, relative to fsys
	r    *os.Root // dir, opened
	dDir string   // of the last file ReadFile read (open_unix.go)
	d    *os.File // dDir, opened

	baseDir  *os.File // base, opened for openat2 (open_unix.go)
	baseFD   int      // its descriptor
	portable bool     // no openat2: every file is opened through its directory

	pDir    string // of the last file looked up among kept texts (contents_linux.go), relative to base
	pFD     int    // pDir, opened with O_PATH
	pOpen   bool   // pFD is open
	touched bool   // this search was noted among kept texts' uses
	again   bool   // fsys was searched before: the texts this search reads are kept
	epoch   uint64 // the kept texts' epoch when the search began
	gen     uint64 // fsys's generation when the search began (KeepTexts)
	vouched bool   // the kept texts of fsys are current (Synced)
	lent    []byte // the last kept text ReadFile returned (Lender)
}

// A FileReader reads the file rel whole into buf (grown as needed), as
// read does. The search reads files through an Opener that is one instead
// of opening them.
type FileReader interface {
	ReadFile(rel string, limit int64, buf []byte) ([]byte, error)
}

func (o *dirOpener) Open(rel string) (*os.File, error) {
	dir, name := path.Split(path.Join(o.base, rel))
	if o.r == nil || dir != o.dir {
		if o.r != nil {
			o.r.Close()
			o.r = nil
		}
		r, err := o.fsys.OpenRoot(path.Clean("./" + dir))
		if err != nil {
			return nil, err
		}
		o.r, o.dir = r, dir
	}
	return o.r.OpenFile(name, os.O_RDONLY|openNonblock, 0)
}

func (o *dirOpener) Close() {
	if o.r != nil {
		o.r.Close()
		o.r = nil
	}
	o.closeDir()
	o.closeParent()
	o.closeBase()
}

func (o *dirOpener) closeDir() {
	if o.d != nil {
		o.d.Close()
		o.d = nil
	}
}

func (o *dirOpener) closeBase() {
	if o.baseDir != nil {
		o.baseDir.Close()
		o.baseDir = nil
	}
}

// outcome is what became of one file.
type outcome int

const (
	gone     outcome = iota // vanished, unreadable or not a regular file: left out
	searched                // read and searched
	binary                  // a NUL byte in its first block
	tooLarge                // above the size limit
)

// errTooLarge reports a file above the limit, or one that grew past it
// while it was read.
var errTooLarge = errors.New("file too large")

// read reads the whole of f, sized first, into buf (grown as needed). A
// file above limit is not read.
func read(f *os.File, limit int64, buf []byte) ([]byte, error) {
	info, err := f.Stat()
	if err != nil {
		return buf, err
	}
	if !info.Mode().IsRegular() { // a FIFO swapped in after the walk: opened without blocking, never read
		return buf, os.ErrInvalid
	}
	return readSized(info.Size(), limit, buf, f.Read)
}

// readSized reads a regular file of size bytes (its fstat's) through rd into
// buf, reused when large enough: at most limit bytes, errTooLarge past it
// (also for a file that grew past it after the fstat). rd returns 0 bytes and
// io.EOF, or 0 bytes and no error, at the end.
func readSized(size, limit int64, buf []byte, rd func([]byte) (int, error)) ([]byte, error) {
	if size > limit {
		return buf, errTooLarge
	}
	if int64(cap(buf)) < size+1 {
		buf = make([]byte, 0, size+1) // +1 notices a file that grew
	}
	data := buf[:0]
	for int64(len(data)) <= limit {
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
		want := data[len(data):min(int64(cap(data)), limit+1)]
		n, err := rd(want)
		data = data[:len(data)+n]
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return data, err
		}
		// A short read that brings the file to its fstat size is the end:
		// the 0-byte read that would confirm it is one syscall per file.
		if n == 0 || n < len(want) && int64(len(data)) == size {
			break
		}
	}
	if int64(len(data)) > limit {
		return data, errTooLarge
	}
	return data, nil
}

// isBinary applies git's rule: a NUL byte in the first block.
func isBinary(data []byte) bool {
	return bytes.IndexByte(data[:min(len(data), binaryProbe)], 0) >= 0
}

// getBuffer and putBuffer lend read buffers across files and searches.
func getBuffer() *[]byte { return buffers.Get().(*[]byte) }

func putBuffer(b *[]byte, data []byte) {
	if cap(data) > keptBuffer {
		return
	}
	*b = data[:0]
	buffers.Put(b)
}
