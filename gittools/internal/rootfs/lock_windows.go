//go:build windows

package rootfs

import "golang.org/x/sys/windows"

// Lock takes an exclusive lock on the whole file (LockFileEx), as osfs does.
func (f *File) Lock() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	var ol windows.Overlapped
	return windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK, 0, ^uint32(0), ^uint32(0), &ol)
}

// Unlock releases the lock Lock took.
func (f *File) Unlock() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	var ol windows.Overlapped
	return windows.UnlockFileEx(windows.Handle(f.Fd()), 0, ^uint32(0), ^uint32(0), &ol)
}
