// Package rootfs gives go-git a [billy.Filesystem] over a directory opened as an [os.Root], so that every
// file go-git's storage and worktree touch (objects, packs, refs, index, config, commit-graph, and every
// write) is opened beneath that directory by the kernel: ".." and symlinks, including a directory swapped for
// a symlink after the repository was found, cannot lead out of it.
//
//	gitDir, err := scopeRoot.OpenRoot(".git") // through the root handle roots opened
//	fs := rootfs.New(gitDir, "/home/me/project/.git")
//	st := filesystem.NewStorage(fs, cache.NewObjectLRUDefault())
//
// Names are relative to the directory; an absolute name is accepted only when it lies lexically below the
// path given to New (go-git passes some back as it got them from Root), and is made relative first. Temp
// files are created beneath the directory and renamed within it, so writes stay atomic and confined.
package rootfs

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/go-git/go-billy/v5"

	"github.com/grove-mcp/grove/gittools/internal/gitfmt"
)

// ErrOutside refuses a name that lies outside the directory.
var ErrOutside = errors.New("path is outside the repository directory")

// FS is a billy.Filesystem beneath an os.Root. It does not own the root: the caller closes it.
type FS struct {
	root   *os.Root
	path   string // the absolute path the root was opened at, for Root() and absolute names
	prefix string // below root, in OS form; "" for the root itself (set by Chroot)
}

// New returns the filesystem of root, which was opened at the absolute path path.
func New(root *os.Root, path string) *FS {
	return &FS{root: root, path: filepath.Clean(path)}
}

var (
	_ billy.Filesystem = (*FS)(nil)
	_ billy.Change     = (*FS)(nil)
	_ billy.Capable    = (*FS)(nil)
)

// name maps a billy name to a name for the os.Root: relative, clean and local.
func (f *FS) name(n string) (string, error) {
	if filepath.IsAbs(n) {
		rel, err := filepath.Rel(f.Root(), filepath.Clean(n))
		if err != nil || !filepath.IsLocal(rel) && rel != "." {
			return "", &fs.PathError{Op: "open", Path: n, Err: ErrOutside}
		}
		n = rel
	}
	n = filepath.Join(f.prefix, n)
	if n == "" {
		n = "."
	}
	if n != "." && !filepath.IsLocal(n) {
		return "", &fs.PathError{Op: "open", Path: n, Err: ErrOutside}
	}
	return n, nil
}

// Root returns the absolute path of the filesystem's directory.
func (f *FS) Root() string { return filepath.Join(f.path, f.prefix) }

// Join joins name elements as filepath.Join does.
func (f *FS) Join(elem ...string) string { return filepath.Join(elem...) }

// Capabilities reports what osfs reports: everything.
func (f *FS) Capabilities() billy.Capability { return billy.DefaultCapabilities }

// Chroot returns the filesystem of the directory p below f, on the same os.Root.
func (f *FS) Chroot(p string) (billy.Filesystem, error) {
	n, err := f.name(p)
	if err != nil {
		return nil, err
	}
	if n == "." {
		n = ""
	}
	return &FS{root: f.root, path: f.path, prefix: n}, nil
}

// Create creates or truncates name, making its parent directories.
func (f *FS) Create(name string) (billy.File, error) {
	return f.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o666)
}

// Open opens name for reading.
func (f *FS) Open(name string) (billy.File, error) { return f.OpenFile(name, os.O_RDONLY, 0) }

// OpenFile opens name; with O_CREATE it makes the parent directories first, as osfs does.
func (f *FS) OpenFile(name string, flag int, perm os.FileMode) (billy.File, error) {
	n, err := f.name(name)
	if err != nil {
		return nil, err
	}
	if flag&os.O_CREATE != 0 {
		if err := f.mkParent(n); err != nil {
			return nil, err
		}
	}
	if flag&(os.O_WRONLY|os.O_RDWR) == 0 {
		// Read-only, as go-git opens HEAD, refs, packed-refs, config, pack indexes and packs: non-blocking, so
		// that a FIFO swapped in cannot hold the open, and so that os does not switch a regular file's
		// descriptor to non-blocking and back to try the poller (four fcntl calls an open).
		flag |= gitfmt.OpenNoBlock
	}
	file, err := f.root.OpenFile(n, flag, perm)
	if err != nil {
		return nil, err
	}
	return &File{File: file, name: name}, nil
}

func (f *FS) mkParent(n string) error {
	if dir := filepath.Dir(n); dir != "." {
		return f.root.MkdirAll(dir, 0o777)
	}
	return nil
}

// Stat describes name, following symlinks only beneath the directory.
func (f *FS) Stat(name string) (os.FileInfo, error) {
	n, err := f.name(name)
	if err != nil {
		return nil, err
	}
	return f.root.Stat(n)
}

// Lstat describes name without following a final symlink.
func (f *FS) Lstat(name string) (os.FileInfo, error) {
	n, err := f.name(name)
	if err != nil {
		return nil, err
	}
	return f.root.Lstat(n)
}

// Rename renames from to to (both beneath the directory), making to's parent directories, as osfs does.
func (f *FS) Rename(from, to string) error {
	fn, err := f.name(from)
	if err != nil {
		return err
	}
	tn, err := f.name(to)
	if err != nil {
		return err
	}
	if err := f.mkParent(tn); err != nil {
		return err
	}
	return f.root.Rename(fn, tn)
}

// Remove removes a file or an empty directory.
func (f *FS) Remove(name string) error {
	n, err := f.name(name)
	if err != nil {
		return err
	}
	return f.root.Remove(n)
}

// maxTempTries bounds the names TempFile tries, as os.CreateTemp does.
const maxTempTries = 10000

var (
	tempMu   sync.Mutex // guards tempSeed
	tempSeed = uint32(time.Now().UnixNano())
)

func nextTempSuffix() string {
	tempMu.Lock()
	defer tempMu.Unlock()
	tempSeed = tempSeed*1664525 + 1013904223 // a linear congruential step: names need only differ
	return strconv.FormatUint(uint64(tempSeed), 10)
}

// TempFile creates a new file in dir (made when missing) whose name starts with prefix, opened for reading
// and writing; its Name is dir joined with the new name, for a later Rename.
func (f *FS) TempFile(dir, prefix string) (billy.File, error) {
	dn, err := f.name(dir)
	if err != nil {
		return nil, err
	}
	if dn != "." {
		if err := f.root.MkdirAll(dn, 0o777); err != nil {
			return nil, err
		}
	}
	for range maxTempTries {
		base := prefix + nextTempSuffix()
		file, err := f.root.OpenFile(filepath.Join(dn, base), os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		return &File{File: file, name: filepath.Join(dir, base)}, nil
	}
	return nil, &fs.PathError{Op: "createtemp", Path: filepath.Join(dir, prefix+"*"), Err: fs.ErrExist}
}

// ReadDir lists the directory p (entries described as Lstat does).
func (f *FS) ReadDir(p string) ([]os.FileInfo, error) {
	n, err := f.name(p)
	if err != nil {
		return nil, err
	}
	d, err := f.root.Open(n)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	return d.Readdir(-1)
}

// MkdirAll makes the directory p and its parents.
func (f *FS) MkdirAll(p string, perm os.FileMode) error {
	n, err := f.name(p)
	if err != nil {
		return err
	}
	return f.root.MkdirAll(n, perm)
}

// Symlink makes link a symbolic link to target (made beneath the directory; the target text is not checked,
// and os.Root never follows it out).
func (f *FS) Symlink(target, link string) error {
	n, err := f.name(link)
	if err != nil {
		return err
	}
	if err := f.mkParent(n); err != nil {
		return err
	}
	return f.root.Symlink(target, n)
}

// Readlink returns the target of the symbolic link name.
func (f *FS) Readlink(name string) (string, error) {
	n, err := f.name(name)
	if err != nil {
		return "", err
	}
	return f.root.Readlink(n)
}

// Chmod changes the mode of name.
func (f *FS) Chmod(name string, mode os.FileMode) error {
	n, err := f.name(name)
	if err != nil {
		return err
	}
	return f.root.Chmod(n, mode)
}

// Lchown changes the owner of name without following a symlink.
func (f *FS) Lchown(name string, uid, gid int) error {
	n, err := f.name(name)
	if err != nil {
		return err
	}
	return f.root.Lchown(n, uid, gid)
}

// Chown changes the owner of name.
func (f *FS) Chown(name string, uid, gid int) error {
	n, err := f.name(name)
	if err != nil {
		return err
	}
	return f.root.Chown(n, uid, gid)
}

// Chtimes changes the times of name.
func (f *FS) Chtimes(name string, atime, mtime time.Time) error {
	n, err := f.name(name)
	if err != nil {
		return err
	}
	return f.root.Chtimes(n, atime, mtime)
}

// File is an opened file; Name is the name it was opened by, as billy callers expect.
type File struct {
	*os.File
	name string
	mu   sync.Mutex // serializes Lock and Unlock, as osfs does
}

// Name returns the name the file was opened (or created by TempFile) with.
func (f *File) Name() string { return f.name }

func (f *File) String() string { return fmt.Sprintf("rootfs.File(%s)", f.name) }
