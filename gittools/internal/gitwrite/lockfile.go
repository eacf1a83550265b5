package gitwrite

// Lock files the way git uses them: name.lock created exclusively (so a running git command and grove never
// both write name), filled, then renamed over name. Taking the lock, filling it and renaming it are separate
// steps so that an operation can hold the index's lock while it works and rename it only at the end.

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// LockedFile is a held name.lock in a directory of the git dir.
type LockedFile struct {
	dir     *os.Root
	ownsDir bool // close dir when done
	name    string
	f       *os.File // open until Write
	done    bool
}

// lockFile creates name.lock in dir exclusively.
func lockFile(dir *os.Root, name string, ownsDir bool) (*LockedFile, error) {
	lock := name + ".lock"
	f, err := dir.OpenFile(lock, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return nil, fmt.Errorf("%s exists: another git process seems to be running in this repository; if not, remove that file and retry", lock)
	}
	if err != nil {
		return nil, fmt.Errorf("locking %s: %w", name, err)
	}
	return &LockedFile{dir: dir, ownsDir: ownsDir, name: name, f: f}, nil
}

// Write fills the lock file with data; call it once.
func (l *LockedFile) Write(data []byte) error {
	if l.f == nil {
		return fmt.Errorf("writing %s: the lock file was already written", l.name)
	}
	_, err := l.f.Write(data)
	if cerr := l.f.Close(); err == nil {
		err = cerr
	}
	l.f = nil
	if err != nil {
		return fmt.Errorf("writing %s: %w", l.name, err)
	}
	return nil
}

// Commit renames the written lock file over name and releases the lock. On failure the lock is removed and
// name is left as it was.
func (l *LockedFile) Commit() error {
	if l.done || l.f != nil {
		return fmt.Errorf("writing %s: the lock file is not ready", l.name)
	}
	if err := l.dir.Rename(l.name+".lock", l.name); err != nil {
		l.Abort()
		return fmt.Errorf("writing %s: %w", l.name, err)
	}
	l.release()
	return nil
}

// Abort removes the lock file, leaving name as it was; after Commit it does nothing.
func (l *LockedFile) Abort() {
	if l.done {
		return
	}
	if l.f != nil {
		l.f.Close()
		l.f = nil
	}
	l.dir.Remove(l.name + ".lock")
	l.release()
}

func (l *LockedFile) release() {
	l.done = true
	if l.ownsDir {
		l.dir.Close()
	}
}

// writeLocked writes data to name in dir the way git does: exclusive name.lock, then rename.
func writeLocked(dir *os.Root, name string, data []byte) error {
	l, err := lockFile(dir, name, false)
	if err != nil {
		return err
	}
	if err := l.Write(data); err != nil {
		l.Abort()
		return err
	}
	return l.Commit()
}
