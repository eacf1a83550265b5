package gittools

// Turning worktree files into blobs and index entries, and blobs back into worktree files.

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// errNotFile is returned for worktree entries git cannot stage (FIFOs, sockets, devices).
var errNotFile = errors.New("not a regular file, symlink or directory")

// writeBlob stores data as a blob object unless it is already there.
func (rp *repo) writeBlob(data []byte) (plumbing.Hash, error) {
	obj := rp.git.Storer.NewEncodedObject()
	obj.SetType(plumbing.BlobObject)
	obj.SetSize(int64(len(data)))
	w, err := obj.Writer()
	if err != nil {
		return plumbing.ZeroHash, err
	}
	if _, err := w.Write(data); err != nil {
		return plumbing.ZeroHash, err
	}
	if err := w.Close(); err != nil {
		return plumbing.ZeroHash, err
	}
	h := obj.Hash()
	if rp.git.Storer.HasEncodedObject(h) == nil {
		return h, nil
	}
	return rp.git.Storer.SetEncodedObject(obj)
}

// readBlob returns the content of the blob h.
func (rp *repo) readBlob(h plumbing.Hash) ([]byte, error) {
	b, err := rp.git.BlobObject(h)
	if err != nil {
		return nil, fmt.Errorf("reading blob %s: %w", h, err)
	}
	r, err := b.Reader()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return io.ReadAll(r)
}

// worktreeEntry reads rel (a regular file or a symlink, already checked with Lstat) from the worktree, stores
// its content as a blob and returns its index entry. keepMode is the mode to keep when core.fileMode is false;
// conv refuses content git would convert.
func (rp *repo) worktreeEntry(wt *os.Root, rel string, fileMode bool, keepMode filemode.FileMode, conv *conversions) (*index.Entry, error) {
	name := filepath.FromSlash(rel)
	data, fi, err := readWorktree(wt, name)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", rel, pathErr(err))
	}
	if fi.Mode().IsRegular() {
		if err := conv.checkIn(rel, data); err != nil {
			return nil, err
		}
	}
	h, err := rp.writeBlob(data)
	if err != nil {
		return nil, fmt.Errorf("storing %s: %w", rel, err)
	}
	e := &index.Entry{Name: rel, Hash: h, Mode: entryMode(fi, fileMode, keepMode)}
	fillStat(e, fi)
	return e, nil
}

// readWorktree returns what git would store for name: a symlink's target, or a regular file's bytes. It never
// blocks on a FIFO (O_NONBLOCK) and never follows a final symlink (O_NOFOLLOW), and the stat data comes from
// the opened file, so it describes what was read.
func readWorktree(wt *os.Root, name string) ([]byte, fs.FileInfo, error) {
	fi, err := wt.Lstat(name)
	if err != nil {
		return nil, nil, err
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		target, err := wt.Readlink(name)
		return []byte(target), fi, err
	}
	if !fi.Mode().IsRegular() {
		return nil, nil, errNotFile
	}
	f, err := wt.OpenFile(name, os.O_RDONLY|openNoFollow, 0)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	if fi, err = f.Stat(); err != nil {
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, nil, errNotFile
	}
	data, err := io.ReadAll(f)
	return data, fi, err
}

// entryMode is the git mode of a worktree entry: a link, or a file, executable when the owner may run it.
func entryMode(fi fs.FileInfo, fileMode bool, keepMode filemode.FileMode) filemode.FileMode {
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		return filemode.Symlink
	case !fileMode && (keepMode == filemode.Regular || keepMode == filemode.Executable):
		return keepMode
	case fi.Mode()&0o100 != 0:
		return filemode.Executable
	}
	return filemode.Regular
}

// fileModeTrusted reports core.fileMode (default true): whether the executable bit in the worktree means anything.
func (rp *repo) fileModeTrusted() bool {
	cfg, err := rp.git.Config()
	if err != nil {
		return true
	}
	v := cfg.Raw.Section("core").Option("filemode")
	return v != "false" && v != "no" && v != "off" && v != "0"
}
