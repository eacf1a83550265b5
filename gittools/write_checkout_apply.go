package gittools

// Carrying out a checked checkoutPlan: deletions first (pruning directories they leave empty), then writes by
// temp file + rename, never through a symlink, all through the worktree's os.Root.

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// applyPlan changes the worktree and the in-memory index as plan says.
func (rp *repo) applyPlan(ctx context.Context, wt *os.Root, ix *indexFile, plan checkoutPlan) error {
	removes := slices.Clone(plan.removes)
	slices.Reverse(removes) // children before the directories they empty
	for _, p := range removes {
		if err := removeTracked(wt, p); err != nil {
			return err
		}
		ix.removeName(p)
	}
	for _, p := range plan.writes {
		e, err := rp.writeEntry(ctx, wt, p, plan.target[p])
		if err != nil {
			return err
		}
		ix.set(e)
	}
	return nil
}

// removeTracked deletes the worktree file p (already gone, or behind a symlink, is fine: git sees no file
// there either) and then the directories it leaves empty.
func removeTracked(wt *os.Root, p string) error {
	if err := checkParents(wt, p); err != nil {
		return nil
	}
	fi, err := wt.Lstat(filepath.FromSlash(p))
	if err != nil {
		return nil
	}
	if fi.IsDir() {
		return nil // a submodule's directory, or an emptied one: leave it
	}
	if err := wt.Remove(filepath.FromSlash(p)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("removing %s: %w", p, pathErr(err))
	}
	for dir := range parentDirs(p) {
		if wt.Remove(filepath.FromSlash(dir)) != nil {
			break // not empty
		}
	}
	return nil
}

// writeEntry writes the target's version of p and returns its index entry with fresh stat data. The blob is
// streamed into the file, so its size costs time, not memory.
func (rp *repo) writeEntry(ctx context.Context, wt *os.Root, p string, b blobEntry) (*index.Entry, error) {
	name := filepath.FromSlash(p)
	if err := makeParents(wt, p); err != nil {
		return nil, err
	}
	e := &index.Entry{Name: p, Hash: b.Hash, Mode: b.Mode}
	if b.Mode == filemode.Submodule {
		if err := wt.Mkdir(name, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("creating %s: %w", p, pathErr(err))
		}
		return e, nil
	}
	if fi, err := wt.Lstat(name); err == nil && fi.IsDir() {
		// An emptied directory where the target has a file (planning found no files in it).
		if err := wt.RemoveAll(name); err != nil {
			return nil, fmt.Errorf("replacing the directory %s: %w", p, pathErr(err))
		}
	}
	o, err := rp.git.Storer.EncodedObject(plumbing.BlobObject, b.Hash)
	if err != nil {
		return nil, fmt.Errorf("reading blob %s for %s: %w", b.Hash.String()[:shortLen], p, rp.noted(err))
	}
	fi, err := replaceFile(ctx, wt, p, o, b.Mode)
	if err != nil {
		return nil, fmt.Errorf("writing %s: %w", p, pathErr(err))
	}
	fillStat(e, fi)
	return e, nil
}

// makeParents creates the missing directories above p, refusing a symlink or file on the way.
func makeParents(wt *os.Root, p string) error {
	parts := strings.Split(path.Dir(p), "/")
	if parts[0] == "." {
		return nil
	}
	for i := range parts {
		q := filepath.FromSlash(strings.Join(parts[:i+1], "/"))
		fi, err := wt.Lstat(q)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			if err := wt.Mkdir(q, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
				return fmt.Errorf("creating %s: %w", filepath.ToSlash(q), pathErr(err))
			}
		case err != nil:
			return fmt.Errorf("checking %s: %w", filepath.ToSlash(q), pathErr(err))
		case !fi.IsDir():
			return fmt.Errorf("writing %s: %w %q", p, errSymlinkParent, filepath.ToSlash(q))
		}
	}
	return checkParents(wt, p)
}

// replaceFile writes blob o as p (a symlink for mode 120000) into a temporary name beside it, then renames it
// over p, so readers see the old file or the new one, never a part.
func replaceFile(ctx context.Context, wt *os.Root, p string, o plumbing.EncodedObject, mode filemode.FileMode) (fs.FileInfo, error) {
	tmp := filepath.FromSlash(path.Join(path.Dir(p), ".grove-"+rand.Text()[:12]+".tmp"))
	var err error
	if mode == filemode.Symlink {
		err = writeSymlink(wt, tmp, o)
	} else {
		err = writeNew(ctx, wt, tmp, o, mode)
	}
	if err == nil {
		err = wt.Rename(tmp, filepath.FromSlash(p))
	}
	if err != nil {
		wt.Remove(tmp)
		return nil, err
	}
	return wt.Lstat(filepath.FromSlash(p))
}

// writeSymlink creates the symlink name pointing where blob o says; a target longer than a path can be is
// refused.
func writeSymlink(wt *os.Root, name string, o plumbing.EncodedObject) error {
	if o.Size() > maxRepoPath {
		return fmt.Errorf("symbolic link target of %s, longer than a path can be", sizeText(o.Size()))
	}
	target, err := readPrefix(o, o.Size())
	if err != nil {
		return err
	}
	return wt.Symlink(string(target), name)
}

// writeNew creates the new file name (it must not exist) with the content of blob o; executable for mode
// 100755.
func writeNew(ctx context.Context, wt *os.Root, name string, o plumbing.EncodedObject, mode filemode.FileMode) error {
	perm := os.FileMode(0o644)
	if mode == filemode.Executable {
		perm = 0o755
	}
	f, err := wt.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	err = copyObject(ctx, f, o)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
