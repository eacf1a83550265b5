//go:build linux

package writecmd

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/grove-mcp/grove/gittools/internal/gitwrite"
)

// maxDirHandles bounds the directory handles a dirFS keeps open; past it they are all closed and opened
// again as needed (a transaction goes through its paths in order, so few are needed at once).
const maxDirHandles = 128

// dirFS is a txFS that reaches the worktree's directories through handles it keeps: each opened once, one
// component at a time from the worktree's own handle, never following a symlink (O_NOFOLLOW), so a path
// behind a symlink fails as it would through the root, and a symlink swapped in later changes nothing.
// Staging writes files from several goroutines (stage.go): the handle map is locked, and the writers create
// files through duplicates of the handles (Hold), since the map closes its own when it is full.
type dirFS struct {
	root rootFS
	top  *os.File // the worktree directory, opened through root

	mu  sync.Mutex     // guards fds
	fds map[string]int // directory (slash path below the worktree) -> open handle
}

// newTxFS returns the txFS of the worktree wt; wt itself if the worktree cannot be opened as a directory.
func newTxFS(wt *os.Root) txFS {
	top, err := wt.Open(".")
	if err != nil {
		return rootFS{wt}
	}
	return &dirFS{root: rootFS{wt}, top: top, fds: map[string]int{}}
}

func (d *dirFS) Close() {
	d.drop("")
	d.top.Close()
}

// drop closes the handles of dir and the directories below it ("": all of them).
func (d *dirFS) drop(dir string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.dropLocked(dir)
}

func (d *dirFS) dropLocked(dir string) {
	if _, ok := d.fds[dir]; !ok && dir != "" {
		return // a directory never opened has no handle below it either: handles are opened top down
	}
	for p, fd := range d.fds {
		if dir == "" || p == dir || strings.HasPrefix(p, dir+"/") {
			unix.Close(fd)
			delete(d.fds, p)
		}
	}
}

// dirFd returns the handle of the directory dir (slash path, "." or "" the worktree).
func (d *dirFS) dirFd(dir string) (int, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.dirFdLocked(dir)
}

func (d *dirFS) dirFdLocked(dir string) (int, error) {
	if dir == "." || dir == "" {
		return int(d.top.Fd()), nil
	}
	if fd, ok := d.fds[dir]; ok {
		return fd, nil
	}
	parent, base := splitSlash(dir)
	pfd, err := d.dirFdLocked(parent)
	if err != nil {
		return -1, err
	}
	if len(d.fds) >= maxDirHandles {
		d.dropLocked("")
		if pfd, err = d.dirFdLocked(parent); err != nil {
			return -1, err
		}
	}
	fd, err := unix.Openat(pfd, base, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1, &fs.PathError{Op: "open", Path: dir, Err: err}
	}
	d.fds[dir] = fd
	return fd, nil
}

// at returns the handle of name's directory and name's last component. name must be a path below the
// worktree as io/fs spells one (no "..", ".", empty or absolute parts): the handles, unlike the root, would
// follow a ".." out of the worktree, so one is refused here whatever the callers checked.
func (d *dirFS) at(name string) (int, string, error) {
	p := filepath.ToSlash(name)
	if !fs.ValidPath(p) {
		return -1, "", &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	dir, base := splitSlash(p)
	fd, err := d.dirFd(dir)
	return fd, base, err
}

func (d *dirFS) Lstat(name string) (fs.FileInfo, error) {
	fd, base, err := d.at(name)
	if err != nil {
		return nil, err
	}
	var st unix.Stat_t
	if err := unix.Fstatat(fd, base, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return nil, &fs.PathError{Op: "lstat", Path: name, Err: err}
	}
	return newStatInfo(base, &st), nil
}

// atPair resolves both names of a rename or an exchange.
func (d *dirFS) atPair(oldname, newname string) (ofd int, obase string, nfd int, nbase string, err error) {
	if ofd, obase, err = d.at(oldname); err != nil {
		return
	}
	nfd, nbase, err = d.at(newname)
	return
}

func (d *dirFS) Rename(oldname, newname string) error {
	ofd, obase, nfd, nbase, err := d.atPair(oldname, newname)
	if err != nil {
		return err
	}
	if err := unix.Renameat(ofd, obase, nfd, nbase); err != nil {
		return &os.LinkError{Op: "rename", Old: oldname, New: newname, Err: err}
	}
	d.drop(filepath.ToSlash(oldname))
	d.drop(filepath.ToSlash(newname))
	return nil
}

func (d *dirFS) OpenFile(name string, flag int, perm fs.FileMode) (*os.File, error) {
	fd, base, err := d.at(name)
	if err != nil {
		return nil, err
	}
	f, err := unix.Openat(fd, base, flag|unix.O_NOFOLLOW|unix.O_CLOEXEC, uint32(perm.Perm()))
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	return os.NewFile(uintptr(f), name), nil
}

func (d *dirFS) Mkdir(name string, perm fs.FileMode) error {
	fd, base, err := d.at(name)
	if err != nil {
		return err
	}
	if err := unix.Mkdirat(fd, base, uint32(perm.Perm())); err != nil {
		return &fs.PathError{Op: "mkdir", Path: name, Err: err}
	}
	return nil
}

func (d *dirFS) Remove(name string) error {
	fd, base, err := d.at(name)
	if err != nil {
		return err
	}
	err = unix.Unlinkat(fd, base, 0)
	if errors.Is(err, unix.EISDIR) || errors.Is(err, unix.EPERM) {
		err = unix.Unlinkat(fd, base, unix.AT_REMOVEDIR)
	}
	if err != nil {
		return &fs.PathError{Op: "remove", Path: name, Err: err}
	}
	d.drop(filepath.ToSlash(name))
	return nil
}

func (d *dirFS) RemoveAll(name string) error {
	d.drop(filepath.ToSlash(name))
	return d.root.RemoveAll(name)
}

func (d *dirFS) Exchange(oldname, newname string) error {
	ofd, obase, nfd, nbase, err := d.atPair(oldname, newname)
	if err != nil {
		return err
	}
	err = unix.Renameat2(ofd, obase, nfd, nbase, unix.RENAME_EXCHANGE)
	if errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EOPNOTSUPP) {
		return errors.ErrUnsupported // an old kernel, or a file system without exchange
	}
	if err != nil {
		return &os.LinkError{Op: "exchange", Old: oldname, New: newname, Err: err}
	}
	d.drop(filepath.ToSlash(oldname))
	d.drop(filepath.ToSlash(newname))
	return nil
}

// Hold returns a duplicate of dir's handle: the handle map may close its own at any time (maxDirHandles).
func (d *dirFS) Hold(dir string) (heldDir, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	fd, err := d.dirFdLocked(dir)
	if err != nil {
		return nil, err
	}
	dup, err := unix.FcntlInt(uintptr(fd), unix.F_DUPFD_CLOEXEC, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: dir, Err: err}
	}
	return fdDir{fd: dup, dir: dir}, nil
}

// fdDir is a held directory of a dirFS: its own handle.
type fdDir struct {
	fd  int
	dir string // for errors
}

func (h fdDir) Create(base string, perm fs.FileMode) (*os.File, error) {
	name := path.Join(h.dir, base)
	if strings.Contains(base, "/") || base == "." || base == ".." || base == "" {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	f, err := unix.Openat(h.fd, base, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, uint32(perm.Perm()))
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	return os.NewFile(uintptr(f), name), nil
}

func (h fdDir) Release() { unix.Close(h.fd) }

func (d *dirFS) Symlink(oldname, newname string) error {
	fd, base, err := d.at(newname)
	if err != nil {
		return err
	}
	if err := unix.Symlinkat(oldname, fd, base); err != nil {
		return &os.LinkError{Op: "symlink", Old: oldname, New: newname, Err: err}
	}
	return nil
}

// CheckParents answers from the directory handles when rel's directory opens through directories only, and
// otherwise asks gitwrite.CheckParents, which tells a symlink from a file or a missing directory.
func (d *dirFS) CheckParents(rel string) error {
	if d.RealDir(dirOf(rel)) {
		return nil
	}
	return gitwrite.CheckParents(d.root.Root, rel)
}

func (d *dirFS) RealDir(dir string) bool {
	_, err := d.dirFd(dir)
	return err == nil
}

// statInfo is an fs.FileInfo of an fstatat result, with a *syscall.Stat_t for Sys as os gives (what
// repo.FillStat reads the index's stat data from).
type statInfo struct {
	name string
	st   syscall.Stat_t
}

func newStatInfo(name string, u *unix.Stat_t) *statInfo {
	s := &statInfo{name: name}
	s.st.Dev, s.st.Ino, s.st.Mode, s.st.Uid, s.st.Gid, s.st.Size = u.Dev, u.Ino, u.Mode, u.Uid, u.Gid, u.Size
	s.st.Mtim = syscall.Timespec{Sec: u.Mtim.Sec, Nsec: u.Mtim.Nsec}
	s.st.Ctim = syscall.Timespec{Sec: u.Ctim.Sec, Nsec: u.Ctim.Nsec}
	s.st.Atim = syscall.Timespec{Sec: u.Atim.Sec, Nsec: u.Atim.Nsec}
	return s
}

func (s *statInfo) Name() string       { return s.name }
func (s *statInfo) Size() int64        { return s.st.Size }
func (s *statInfo) ModTime() time.Time { return time.Unix(int64(s.st.Mtim.Sec), int64(s.st.Mtim.Nsec)) }
func (s *statInfo) IsDir() bool        { return s.Mode().IsDir() }
func (s *statInfo) Sys() any           { return &s.st }

// Mode converts the stat mode as os does.
func (s *statInfo) Mode() fs.FileMode {
	m := fs.FileMode(s.st.Mode & 0o777)
	switch s.st.Mode & unix.S_IFMT {
	case unix.S_IFDIR:
		m |= fs.ModeDir
	case unix.S_IFLNK:
		m |= fs.ModeSymlink
	case unix.S_IFIFO:
		m |= fs.ModeNamedPipe
	case unix.S_IFSOCK:
		m |= fs.ModeSocket
	case unix.S_IFCHR:
		m |= fs.ModeDevice | fs.ModeCharDevice
	case unix.S_IFBLK:
		m |= fs.ModeDevice
	}
	if s.st.Mode&unix.S_ISUID != 0 {
		m |= fs.ModeSetuid
	}
	if s.st.Mode&unix.S_ISGID != 0 {
		m |= fs.ModeSetgid
	}
	if s.st.Mode&unix.S_ISVTX != 0 {
		m |= fs.ModeSticky
	}
	return m
}
