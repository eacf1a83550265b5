package grep

import (
	"errors"

	"golang.org/x/sys/unix"
)

// openBeneath opens the regular file rel (slash-separated, below the
// directory dir) with one openat2(2) that refuses to leave dir and to follow
// any symlink: a file costs no descriptor of its directory, which the
// walk's order would otherwise open and reopen. errNoBeneath says to open it
// the portable way instead: the kernel has no openat2 (before 5.6, or a
// sandbox forbids it), or the path goes through a symlink, which the
// portable way follows while it stays inside the root.
func openBeneath(dir int, rel string) (int, error) {
	how := unix.OpenHow{
		Flags:   unix.O_RDONLY | unix.O_NOFOLLOW | unix.O_NONBLOCK | unix.O_NOCTTY | unix.O_CLOEXEC,
		Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS,
	}
	for {
		fd, err := unix.Openat2(dir, rel, &how)
		switch {
		case err == nil:
			return fd, nil
		case errors.Is(err, unix.EINTR), errors.Is(err, unix.EAGAIN):
			continue
		case errors.Is(err, unix.ENOSYS), errors.Is(err, unix.EPERM):
			return -1, errNoOpenat2
		case errors.Is(err, unix.ELOOP), errors.Is(err, unix.EXDEV), errors.Is(err, unix.E2BIG), errors.Is(err, unix.EINVAL):
			return -1, errNoBeneath
		}
		return -1, err
	}
}
