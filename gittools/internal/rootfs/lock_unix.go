//go:build unix

package rootfs

import "golang.org/x/sys/unix"

// Lock takes an exclusive advisory lock on the file (flock), as osfs does.
func (f *File) Lock() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return unix.Flock(int(f.Fd()), unix.LOCK_EX)
}

// Unlock releases the lock Lock took.
func (f *File) Unlock() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return unix.Flock(int(f.Fd()), unix.LOCK_UN)
}
