//go:build unix

package grep

import (
	"os"
	"path"

	"golang.org/x/sys/unix"
)

// openNonblock keeps open(2) of a FIFO swapped in after the walk from
// waiting for a writer.
const openNonblock = unix.O_NONBLOCK

// ReadFile reads the file rel into buf, as read does, for a file costing
// openat (relative to its directory's descriptor), fstat, one read when its
// size has not changed since the fstat, and close: an *os.File would add a
// poller registration and a read returning 0 bytes to every file. It never
// follows a symlink, and a file that is not regular is not read.
func (o *dirOpener) ReadFile(rel string, limit int64, buf []byte) ([]byte, error) {
	dir, name := path.Split(path.Join(o.base, rel))
	if name == "" || name == "." || name == ".." {
		return buf, os.ErrInvalid
	}
	if o.d == nil || dir != o.dDir {
		o.closeDir()
		d, err := o.fsys.Open(path.Clean("./" + dir))
		if err != nil {
			return buf, err
		}
		o.d, o.dDir = d, dir
	}
	fd, err := openat(int(o.d.Fd()), name)
	if err != nil {
		return buf, err
	}
	defer unix.Close(fd)
	return readFD(fd, limit, buf)
}

func openat(dir int, name string) (int, error) {
	for {
		fd, err := unix.Openat(dir, name, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
		if err != unix.EINTR {
			return fd, err
		}
	}
}

// readFD reads the regular file fd, sized first, into buf (grown as
// needed). A file above limit is not read; one that grows past it while
// it is read is errTooLarge too.
func readFD(fd int, limit int64, buf []byte) ([]byte, error) {
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return buf, err
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG { // a FIFO swapped in after the walk: opened without blocking, never read
		return buf, os.ErrInvalid
	}
	size := st.Size
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
		n, err := unix.Read(fd, want)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return data, err
		}
		data = data[:len(data)+n]
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
