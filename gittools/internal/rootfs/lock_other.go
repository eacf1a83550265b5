//go:build !unix && !windows

package rootfs

// Lock does nothing where the OS has no file locks grove can take (plan9, js, wasip1); osfs does the same.
func (f *File) Lock() error { return nil }

// Unlock does nothing; see Lock.
func (f *File) Unlock() error { return nil }
