package fsres

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/grove-mcp/grove/roots"
)

var (
	errWriteDir     = errors.New("is a directory; refusing to write over it")
	errWriteSymlink = errors.New("is a symlink; write to the file it points to instead")
	errNoParent     = errors.New("parent directory does not exist (create it with create_directory)")
)

// writeAtomic replaces (or creates) the file at loc with data: a temporary
// file in the same directory, written and fsynced, then renamed over the
// target. Every step goes through the root's os.Root, so a directory swapped
// for a symlink to elsewhere makes the write fail instead of landing outside.
// An existing file keeps its permissions; symlinks and directories are
// refused rather than replaced.
func writeAtomic(loc roots.Loc, data []byte) (created bool, err error) {
	r, name := loc.FS(), loc.Name()
	if loc.Rel == "." {
		return false, errWriteDir
	}
	perm, created, err := targetPerm(r, name)
	if err != nil {
		return false, err
	}
	dir := filepath.Dir(name)
	if info, err := r.Stat(dir); err != nil || !info.IsDir() {
		return false, errNoParent
	}
	tmp := filepath.Join(dir, "."+filepath.Base(name)+".grove-"+randomHex(6)+".tmp")
	tf, err := r.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return false, err
	}
	if err := fillTemp(tf, data, perm, !created); err != nil {
		r.Remove(tmp)
		return false, err
	}
	if err := r.Rename(tmp, name); err != nil {
		r.Remove(tmp)
		return false, err
	}
	syncDir(r, dir)
	return created, nil
}

// targetPerm checks what is at name now and returns the permissions the new
// file should have.
func targetPerm(r *os.Root, name string) (fs.FileMode, bool, error) {
	info, err := r.Lstat(name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return 0o644, true, nil
	case err != nil:
		return 0, false, err
	case info.IsDir():
		return 0, false, errWriteDir
	case info.Mode()&fs.ModeSymlink != 0:
		return 0, false, errWriteSymlink
	case !info.Mode().IsRegular():
		return 0, false, roots.ErrNotRegular
	}
	return info.Mode().Perm(), false, nil
}

func fillTemp(tf *os.File, data []byte, perm fs.FileMode, keepPerm bool) error {
	_, err := tf.Write(data)
	if err == nil && keepPerm {
		err = tf.Chmod(perm) // the umask must not change an existing file's mode
	}
	if err == nil {
		err = tf.Sync()
	}
	if cerr := tf.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("writing temporary file: %w", err)
	}
	return nil
}

// syncDir makes the rename durable; failure only costs durability, so it is
// not reported.
func syncDir(r *os.Root, dir string) {
	d, err := r.Open(dir)
	if err != nil {
		return
	}
	d.Sync()
	d.Close()
}

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}
