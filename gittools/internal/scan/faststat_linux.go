//go:build linux

package scan

import (
	"io/fs"
	"os"
	"path"

	"github.com/grove-mcp/grove/gittools/internal/repo"

	"github.com/grove-mcp/grove/gittools/internal/gitfmt"

	"github.com/go-git/go-git/v5/plumbing/filemode"
	"golang.org/x/sys/unix"

	"github.com/grove-mcp/grove/ignore"
)

// fastStat proves index entries clean with one fstatat(dirfd, name) each, on directory descriptors opened
// from the worktree's handle one component at a time with O_PATH|O_NOFOLLOW|O_DIRECTORY: no path is
// resolved across a symlink, so nothing outside the worktree is reached, and nothing is opened for reading
// (O_PATH), so a FIFO can never block. It skips the FileInfo that os.Root.Lstat builds per file (the scan's
// main cost beyond the syscall itself); anything it cannot prove clean goes through the statter as before.
type fastStat struct {
	top  *os.File       // the worktree, opened through the os.Root
	dirs map[string]int // descriptors by directory ("" or ending in "/"); -1: not a real directory
	st   unix.Stat_t

	lastDir string // the directory of the previous entry, usually that of the next one in index order
	lastFD  int
}

// fastStatWorks reports whether fastStat can prove entries clean here (see Preload).
const fastStatWorks = true

func newFastStat(rp *repo.Repo) *fastStat {
	top, err := rp.Loc.FS().OpenFile(rp.Loc.Name(), os.O_RDONLY|unix.O_DIRECTORY|unix.O_NONBLOCK, 0)
	if err != nil {
		return nil
	}
	fd := int(top.Fd())
	return &fastStat{top: top, dirs: map[string]int{"": fd}, lastFD: fd}
}

// clean reports whether the worktree file of e has exactly the stat data, mode and size the index records
// and is not racily clean: then compareFile would return 0 without reading it.
func (f *fastStat) clean(e *gitfmt.IndexEntry, idx *gitfmt.Index) bool {
	if f == nil || e.IntentToAdd || racy(*e, idx) {
		return false
	}
	if len(f.dirs) >= maxOpenDirs {
		f.closeDirs()
	}
	dir, name := path.Split(e.Name)
	fd := f.lastFD
	if dir != f.lastDir {
		fd = f.dir(dir)
		f.lastDir, f.lastFD = dir, fd
	}
	if fd < 0 || unix.Fstatat(fd, name, &f.st, unix.AT_SYMLINK_NOFOLLOW) != nil {
		return false
	}
	return statClean(e, &f.st)
}

// statClean reports whether st is exactly the stat data, mode and size e records (racy aside).
func statClean(e *gitfmt.IndexEntry, st *unix.Stat_t) bool {
	return statMode(st.Mode) == e.Mode && uint32(st.Size) == e.Size &&
		uint32(st.Mtim.Sec) == e.MtimeS && uint32(st.Mtim.Nsec) == e.MtimeNs &&
		uint32(st.Ctim.Sec) == e.CtimeS && uint32(st.Ctim.Nsec) == e.CtimeNs && uint32(st.Ino) == e.Ino
}

// walkedClean is clean for the entry d of the untracked walk, stat-ed through the walk's own directory
// handle (ignore.LstatEntry), which spares fastStat opening the directory again.
func walkedClean(d fs.DirEntry, e *gitfmt.IndexEntry, idx *gitfmt.Index) bool {
	if e.IntentToAdd || racy(*e, idx) {
		return false
	}
	var st unix.Stat_t
	return ignore.LstatEntry(d, &st) == nil && statClean(e, &st)
}

// statMode is worktreeMode for raw stat data.
func statMode(m uint32) filemode.FileMode {
	switch m & unix.S_IFMT {
	case unix.S_IFLNK:
		return filemode.Symlink
	case unix.S_IFREG:
		if m&0o111 != 0 {
			return filemode.Executable
		}
		return filemode.Regular
	}
	return 0
}

// dir returns the descriptor of directory d, opening it and any missing parent; -1 if some component is
// not a real directory.
func (f *fastStat) dir(d string) int {
	if fd, ok := f.dirs[d]; ok {
		return fd
	}
	parent, name := path.Split(d[:len(d)-1])
	fd := f.dir(parent)
	if name == "" || name == "." || name == ".." { // readIndex refuses such names; never climb out regardless
		fd = -1
	}
	if fd >= 0 {
		var err error
		fd, err = unix.Openat(fd, name, unix.O_PATH|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		if err != nil {
			fd = -1
		}
	}
	f.dirs[d] = fd
	return fd
}

// closeDirs closes the descriptors fastStat opened, keeping the worktree's.
func (f *fastStat) closeDirs() {
	for d, fd := range f.dirs {
		if d != "" {
			if fd >= 0 {
				unix.Close(fd)
			}
			delete(f.dirs, d)
		}
	}
	f.lastDir, f.lastFD = "", f.dirs[""]
}

func (f *fastStat) close() {
	if f == nil {
		return
	}
	f.closeDirs()
	f.top.Close()
}
