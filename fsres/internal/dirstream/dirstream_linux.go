//go:build linux

package dirstream

import (
	"bytes"
	"encoding/binary"
	"io/fs"
	"os"
	"slices"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/grove-mcp/grove/internal/dtype"
)

// Supported says whether this build reads directories as a stream, in the
// file system's order: it needs getdents64's d_off and lseek to resume by it.
const Supported = true

// direntBufSize is the largest getdents64 buffer of a streamed directory: a
// batch of about 1,000 entries of short names. A page that needs fewer
// entries reads a smaller batch (direntBufFor).
const direntBufSize = 32 << 10

var direntBufPool = sync.Pool{New: func() any { b := make([]byte, direntBufSize); return &b }}

// direntBufFor is the buffer length for a batch of about n entries of
// names of a dozen bytes or two.
func direntBufFor(n int) int {
	return min(max(n*48+512, 4<<10), direntBufSize)
}

// A Dir reads one directory with getdents64, keeping each entry's d_off:
// the position of the entry after it, which lseek on a new descriptor of the
// same directory resumes from.
type Dir struct {
	f       *os.File
	bp      *[]byte // from direntBufPool
	buf     []byte  // the part of *bp read into
	Entries []Entry // read, not yet taken
	eof     bool
}

// Open opens the directory "." of dir and places it at off (0: the
// start), a d_off from an earlier listing of it; batches hold about n
// entries.
//
// ext4 (hash order, 64-bit cookies), tmpfs, btrfs and xfs keep an entry's
// cookie while other entries come and go, so a listing resumed at off goes
// on after the entry it ended on. On a file system whose cookies shift when
// the directory changes, an entry may be skipped or repeated if the
// directory changes between two pages; the names read are still this
// directory's, inside the root, as the descriptor is opened through it.
func Open(dir *os.Root, off int64, n int) (*Dir, error) {
	f, err := dir.OpenFile(".", os.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	d := &Dir{f: f}
	d.bp = direntBufPool.Get().(*[]byte)
	d.buf = (*d.bp)[:direntBufFor(n)]
	if off != 0 {
		rc, err := f.SyscallConn()
		var serr error
		if err == nil {
			err = rc.Control(func(fd uintptr) { _, serr = unix.Seek(int(fd), off, unix.SEEK_SET) })
		}
		if err == nil {
			err = serr
		}
		if err != nil {
			d.Close()
			return nil, err
		}
	}
	return d, nil
}

// Close closes the directory's descriptor.
func (d *Dir) Close() {
	d.f.Close()
	direntBufPool.Put(d.bp)
}

// more reads the next batch; false at the end of the directory or on an
// error (an unreadable rest reads as the end).
func (d *Dir) More() bool {
	if d.eof {
		return false
	}
	rc, err := d.f.SyscallConn()
	if err != nil {
		d.eof = true
		return false
	}
	var n int
	var rerr error
	err = rc.Control(func(fd uintptr) {
		for {
			n, rerr = unix.Getdents(int(fd), d.buf)
			if rerr != unix.EINTR {
				return
			}
		}
	})
	if err != nil || rerr != nil || n <= 0 {
		d.eof = true
		return false
	}
	d.Entries = parseDentOffs(d.buf[:n], d.Entries)
	d.buf = (*d.bp)[:direntBufSize] // the next batches: whole ones
	return true
}

// lstat describes the entry name of the directory, not following a
// symlink: one fstatat on the listing's descriptor, name being one entry's
// name (no "/"), so it never leaves the directory.
func (d *Dir) Lstat(name string) (mode fs.FileMode, size int64, mtime time.Time, err error) {
	rc, err := d.f.SyscallConn()
	if err != nil {
		return 0, 0, time.Time{}, err
	}
	var st unix.Stat_t
	var serr error
	if err := rc.Control(func(fd uintptr) { serr = unix.Fstatat(int(fd), name, &st, unix.AT_SYMLINK_NOFOLLOW) }); err != nil {
		return 0, 0, time.Time{}, err
	}
	if serr != nil {
		return 0, 0, time.Time{}, serr
	}
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFREG:
		mode = 0
	case unix.S_IFDIR:
		mode = fs.ModeDir
	case unix.S_IFLNK:
		mode = fs.ModeSymlink
	default:
		mode = fs.ModeIrregular
	}
	return mode, st.Size, time.Unix(st.Mtim.Unix()), nil
}

// MoreThan reports whether the directory "." of dir holds more than n
// entries (besides "." and ".."), reading no further than it takes to know.
func MoreThan(dir *os.Root, n int) bool {
	d, err := Open(dir, 0, direntBufSize)
	if err != nil {
		return false
	}
	defer d.Close()
	rc, err := d.f.SyscallConn()
	if err != nil {
		return false
	}
	seen := 0
	for seen <= n {
		var got int
		var rerr error
		err := rc.Control(func(fd uintptr) {
			for {
				got, rerr = unix.Getdents(int(fd), d.buf)
				if rerr != unix.EINTR {
					return
				}
			}
		})
		if err != nil || rerr != nil || got <= 0 {
			return false
		}
		for buf := d.buf[:got]; len(buf) >= 19; {
			reclen := int(binary.NativeEndian.Uint16(buf[16:]))
			if reclen < 19 || reclen > len(buf) {
				break
			}
			name := buf[19:reclen]
			if i := bytes.IndexByte(name, 0); i >= 0 {
				name = name[:i]
			}
			if string(name) != "." && string(name) != ".." {
				seen++
			}
			buf = buf[reclen:]
		}
	}
	return true
}

// parseDentOffs appends the linux_dirent64 records of buf (d_ino, d_off,
// d_reclen, d_type, d_name) to ents, leaving out "." and "..". The names
// of one batch share one allocation.
func parseDentOffs(buf []byte, ents []Entry) []Entry {
	type rec struct {
		end int
		typ byte
		off int64
	}
	names := make([]byte, 0, len(buf)/2)  // records are about twice as long as their names
	recs := make([]rec, 0, len(buf)/24+1) // and at least 24 bytes long
	dtype.Each(buf, func(off int64, typ byte, name []byte) {
		names = append(names, name...)
		recs = append(recs, rec{end: len(names), typ: typ, off: off})
	})
	all := string(names)
	ents = slices.Grow(ents, len(recs))
	start := 0
	for _, r := range recs {
		typ, known := dtype.Mode(r.typ)
		ents = append(ents, Entry{Name: all[start:r.end], Type: typ, Known: known, Off: r.off})
		start = r.end
	}
	return ents
}
