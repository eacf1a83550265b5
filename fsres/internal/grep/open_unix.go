//go:build unix

package grep

import (
	"errors"
	"os"
	"path"
	"time"

	"golang.org/x/sys/unix"
)

// openNonblock keeps open(2) of a FIFO swapped in after the walk from
// waiting for a writer.
const openNonblock = unix.O_NONBLOCK

// errNoOpenat2 and errNoBeneath are openBeneath's ways to say "open this
// file the portable way": for every file, or for this one.
var (
	errNoOpenat2 = errors.New("no openat2")
	errNoBeneath = errors.New("not openable beneath")
)

// ReadFile reads the file rel into buf, as read does, for a file costing
// one open, fstat, one read when its size has not changed since the fstat,
// and close: an *os.File would add a poller registration and a read
// returning 0 bytes to every file. The open is openat2 beneath the searched
// directory where the kernel has it, else openat relative to the file's
// directory. It never follows a symlink, and a file that is not regular is
// not read.
func (o *dirOpener) ReadFile(rel string, limit int64, buf []byte) ([]byte, error) {
	if !o.portable {
		if data, ok, err := o.kept(rel, limit, buf); ok {
			return data, err
		}
		readAt := time.Now()
		fd, err := o.openBeneath(rel)
		if err == nil {
			defer unix.Close(fd)
			var st unix.Stat_t
			data, err := readFD(fd, limit, buf, &st)
			if err == nil {
				o.keep(rel, &st, data, readAt)
			}
			return data, err
		}
		if !errors.Is(err, errNoBeneath) && !errors.Is(err, errNoOpenat2) {
			return buf, err
		}
	}
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
	var st unix.Stat_t
	return readFD(fd, limit, buf, &st)
}

// openBeneath opens rel below the searched directory, whose descriptor it
// opens on first use.
func (o *dirOpener) openBeneath(rel string) (int, error) {
	if path.IsAbs(rel) || rel == "" {
		return -1, os.ErrInvalid
	}
	if err := o.openBase(); err != nil {
		return -1, err
	}
	fd, err := openBeneath(o.baseFD, rel)
	if errors.Is(err, errNoOpenat2) {
		o.portable = true
	}
	return fd, err
}

// openBase opens the searched directory for openat2 on first use.
func (o *dirOpener) openBase() error {
	if o.baseDir != nil {
		return nil
	}
	d, err := o.fsys.Open(path.Clean("./" + o.base))
	if err != nil {
		o.portable = true
		return errNoOpenat2
	}
	o.baseDir, o.baseFD = d, int(d.Fd())
	return nil
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
// needed), and sets st to its fstat. A file above limit is not read; one
// that grows past it while it is read is errTooLarge too.
func readFD(fd int, limit int64, buf []byte, st *unix.Stat_t) ([]byte, error) {
	if err := unix.Fstat(fd, st); err != nil {
		return buf, err
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG { // a FIFO swapped in after the walk: opened without blocking, never read
		return buf, os.ErrInvalid
	}
	return readSized(st.Size, limit, buf, func(p []byte) (int, error) {
		for {
			n, err := unix.Read(fd, p)
			if err == unix.EINTR {
				continue
			}
			if err != nil {
				return 0, err // unix.Read says -1
			}
			return n, nil
		}
	})
}
