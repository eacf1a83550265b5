package gittools

// Turning worktree files into blobs and index entries, and blobs back into worktree files.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// errNotFile is returned for worktree entries git cannot stage (FIFOs, sockets, devices).
var errNotFile = errors.New("not a regular file, symlink or directory")

// maxAddBytes is the largest file git_add stores: 100 MiB, the size at which popular Git hosts (GitHub among
// them) refuse a file in a push, so a bigger one would make the repository unpushable there; such files
// belong in Git LFS, which grove does not run. Staging streams the file (hash and compression in one pass),
// so this bounds time and disk, not memory.
const maxAddBytes = 100 << 20

// worktreeEntry stores the worktree entry rel (a regular file or a symlink, already checked with Lstat) as a
// blob and returns its index entry. keepMode is the mode to keep when core.fileMode is false; conv refuses
// content git would convert. A file is streamed into the object store (see writeBlobFrom), never held in
// memory, and refused past maxAddBytes.
func (rp *repo) worktreeEntry(ctx context.Context, wt *os.Root, rel string, fileMode bool, keepMode filemode.FileMode, conv *conversions) (*index.Entry, error) {
	name := filepath.FromSlash(rel)
	fi, err := wt.Lstat(name)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", rel, pathErr(err))
	}
	var h plumbing.Hash
	if fi.Mode()&fs.ModeSymlink != 0 {
		target, err := wt.Readlink(name)
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", rel, pathErr(err))
		}
		h, err = rp.store.writeBlobFrom(ctx, strings.NewReader(target), int64(len(target)), nil)
		if err != nil {
			return nil, fmt.Errorf("storing %s: %w", rel, err)
		}
	} else if h, fi, err = rp.storeFile(ctx, wt, rel, conv); err != nil {
		return nil, err
	}
	e := &index.Entry{Name: rel, Hash: h, Mode: entryMode(fi, fileMode, keepMode)}
	fillStat(e, fi)
	return e, nil
}

// storeFile streams the regular file rel into a blob and returns its hash and the stat data of what was read
// (from the opened file, so it describes the content). It never blocks on a FIFO and never follows a final
// symlink (openNoFollow).
func (rp *repo) storeFile(ctx context.Context, wt *os.Root, rel string, conv *conversions) (plumbing.Hash, fs.FileInfo, error) {
	crlf, err := conv.checkIn(rel)
	if err != nil {
		return plumbing.ZeroHash, nil, err
	}
	f, err := wt.OpenFile(filepath.FromSlash(rel), os.O_RDONLY|openNoFollow, 0)
	if err != nil {
		return plumbing.ZeroHash, nil, fmt.Errorf("reading %s: %w", rel, pathErr(err))
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return plumbing.ZeroHash, nil, fmt.Errorf("reading %s: %w", rel, pathErr(err))
	}
	if !fi.Mode().IsRegular() {
		return plumbing.ZeroHash, nil, errNotFile
	}
	if fi.Size() > maxAddBytes {
		return plumbing.ZeroHash, nil, fmt.Errorf("%s is %s, over the %s that git_add stores (the size at which popular Git hosts "+
			"refuse a file); nothing was staged. Keep it out of the repository (.gitignore), or use git with Git LFS for it",
			rel, sizeText(fi.Size()), sizeText(maxAddBytes))
	}
	var check func([]byte) error
	if crlf {
		check = crlfCheck(rel)
	}
	h, err := rp.store.writeBlobFrom(ctx, f, fi.Size(), check)
	if err != nil {
		return plumbing.ZeroHash, nil, fmt.Errorf("storing %s: %w", rel, err)
	}
	return h, fi, nil
}

// crlfCheck returns a chunk check that fails at the first CRLF, even one split between two chunks.
func crlfCheck(rel string) func([]byte) error {
	var lastCR bool
	return func(p []byte) error {
		if len(p) == 0 {
			return nil
		}
		if lastCR && p[0] == '\n' || bytes.Contains(p, []byte("\r\n")) {
			return errCRLF(rel)
		}
		lastCR = p[len(p)-1] == '\r'
		return nil
	}
}

// blobHash hashes the worktree entry name as git would store it (a symlink's target, a regular file's bytes),
// streaming, and returns the stat data of what it read. It never blocks on a FIFO nor follows a final symlink.
func blobHash(ctx context.Context, wt *os.Root, name string) (plumbing.Hash, fs.FileInfo, error) {
	fi, err := wt.Lstat(name)
	if err != nil {
		return plumbing.ZeroHash, nil, err
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		target, err := wt.Readlink(name)
		return plumbing.ComputeHash(plumbing.BlobObject, []byte(target)), fi, err
	}
	if !fi.Mode().IsRegular() {
		return plumbing.ZeroHash, nil, errNotFile
	}
	f, err := wt.OpenFile(name, os.O_RDONLY|openNoFollow, 0)
	if err != nil {
		return plumbing.ZeroHash, nil, err
	}
	defer f.Close()
	if fi, err = f.Stat(); err != nil {
		return plumbing.ZeroHash, nil, err
	}
	if !fi.Mode().IsRegular() {
		return plumbing.ZeroHash, nil, errNotFile
	}
	h, err := hashReader(ctx, f, fi.Size())
	return h, fi, err
}

// hashReader computes the blob hash of the size bytes r holds, in chunks, checking ctx; r holding more or
// fewer bytes (a file changing while it is read) is an error.
func hashReader(ctx context.Context, r io.Reader, size int64) (plumbing.Hash, error) {
	hw := plumbing.NewHasher(plumbing.BlobObject, size)
	n, err := io.CopyBuffer(hw, ctxReader{ctx, io.LimitReader(r, size+1)}, make([]byte, 64<<10))
	if err != nil {
		return plumbing.ZeroHash, err
	}
	if n != size {
		return plumbing.ZeroHash, errors.New("file changed while it was read")
	}
	return hw.Sum(), nil
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
