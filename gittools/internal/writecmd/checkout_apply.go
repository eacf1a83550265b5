package writecmd

// Carrying out a checked checkoutPlan in two phases, so that a cancelled or failed change leaves the worktree
// as it was or finishes:
//
//   - staging (cancellable): every new file is written, in full, under a private name: beside its path (the
//     private directory's name and a number) when its directory exists, else in a private directory at the top
//     of the worktree; no tracked file has changed yet, and a cancel only removes those files and directory;
//   - commit (not cancellable, len(removes)+len(writes) steps and the directories they create or empty):
//     deleted files are renamed into the private directory, a file staged beside the file it replaces is
//     exchanged with it in one step (the old file takes the private name), other staged files are renamed into
//     place after the file they replace is moved aside, each step journaled; an I/O error undoes the journal in reverse, so the old files come back as they were.
//
// All of it goes through the worktree's os.Root and never through a symlink.

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
	"strconv"
	"strings"

	"github.com/grove-mcp/grove/gittools/internal/gitwrite"

	"github.com/grove-mcp/grove/gittools/internal/repo"

	"github.com/grove-mcp/grove/gittools/internal/gitfmt"

	"github.com/grove-mcp/grove/gittools/internal/patchtext"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// stagingPrefix starts the name of the private directory a worktree change stages in.
const stagingPrefix = ".grove-checkout-"

// faultHook, set only by tests, is called when staging begins, before every step of the commit phase, and
// before the index and HEAD are renamed into place; an error it returns stands for that step's I/O failure.
var faultHook func(step string) error

func fault(step string) error {
	if faultHook != nil {
		return faultHook(step)
	}
	return nil
}

// applyPlan changes the worktree and the in-memory index as plan says: all of it, or (on a cancel or an
// error) none of it.
func applyPlan(rp *repo.Repo, ctx context.Context, wt *os.Root, ix *gitwrite.IndexFile, plan checkoutPlan) error {
	tx, err := stageTx(rp, ctx, wt, plan)
	if err != nil {
		return err
	}
	defer tx.close()
	if err := tx.commit(); err != nil {
		return err
	}
	tx.setIndex(ix)
	tx.finish()
	return nil
}

// undoStep is one journaled step of the commit phase.
type undoStep struct {
	kind   byte   // 'p' placed a staged file at path, 'x' exchanged it with path's file (now at backup), 'm' moved path to backup, 'd' created dir path, 'r' removed dir path
	path   string // slash path relative to the worktree
	backup string // for 'm'
	perm   fs.FileMode
}

// worktreeTx is a plan whose new files are staged in dir, ready to be committed into the worktree.
type worktreeTx struct {
	rp      *repo.Repo
	wt      txFS
	plan    checkoutPlan
	dir     string            // the private directory, at the top of the worktree
	staged  map[string]string // target path -> its staged file (slash paths)
	backups int
	journal []undoStep
	entries []*index.Entry // index entries of the written paths, filled by commit
}

// stageTx writes every new file of plan into a private directory; on a cancel or an error it removes that
// directory and the worktree is as it was.
func stageTx(rp *repo.Repo, ctx context.Context, wt *os.Root, plan checkoutPlan) (*worktreeTx, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := fault("stage"); err != nil {
		return nil, err
	}
	tx := &worktreeTx{rp: rp, wt: newTxFS(wt), plan: plan, dir: stagingPrefix + rand.Text()[:12], staged: map[string]string{}}
	if err := tx.wt.Mkdir(tx.dir, 0o700); err != nil {
		tx.close()
		return nil, fmt.Errorf("creating the staging directory: %w", repo.PathErr(err))
	}
	sp, err := startStagePool(tx.wt, tx.dir)
	if err != nil {
		tx.finish()
		return nil, fmt.Errorf("creating the staging directory: %w", repo.PathErr(err))
	}
	err = tx.stage(ctx, sp)
	if werr := sp.wait(); err == nil {
		err = werr
	}
	if err == nil {
		err = ctx.Err()
	}
	if err != nil {
		tx.finish()
		return nil, err
	}
	return tx, nil
}

// stage reads each new file's blob and has sp write it (a symlink or a large file is written here, streamed).
func (tx *worktreeTx) stage(ctx context.Context, sp *stagePool) error {
	for i, p := range tx.plan.writes {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := sp.failed(); err != nil {
			return err
		}
		b := tx.plan.target[p]
		if b.Mode == filemode.Submodule {
			continue
		}
		name, k := sp.name(tx.dir, i, p)
		o, err := tx.rp.Git.Storer.EncodedObject(plumbing.BlobObject, b.Hash)
		if err != nil {
			return fmt.Errorf("reading blob %s for %s: %w", b.Hash.String()[:repo.ShortLen], p, tx.rp.Noted(err))
		}
		if b.Mode == filemode.Symlink || o.Size() > smallBlob {
			err = stageObject(ctx, tx.wt, name, p, o, b.Mode)
		} else {
			var data []byte
			if data, err = repo.ReadPrefix(o, o.Size()); err == nil {
				err = sp.send(k, name, p, data, filePerm(b.Mode))
			}
		}
		tx.staged[p] = name // before the error: a failed write may have left the file
		if err != nil {
			return err
		}
	}
	return nil
}

// stageObject writes blob o, the target's version of p, as the new file name (a symlink for mode 120000). The
// blob is streamed into the file, so its size costs time, not memory.
func stageObject(ctx context.Context, wt txFS, name, p string, o plumbing.EncodedObject, mode filemode.FileMode) error {
	var err error
	if mode == filemode.Symlink {
		err = writeSymlink(wt, filepath.FromSlash(name), o)
	} else {
		err = writeNew(ctx, wt, filepath.FromSlash(name), o, mode)
	}
	if err != nil {
		return fmt.Errorf("writing %s: %w", p, repo.PathErr(err))
	}
	return nil
}

// commit puts the staged files into place. It does not look at a context: stopping half-way is what it exists
// to prevent, and its steps are bounded by the plan. On an I/O error it undoes what it did and returns the
// error; if undoing fails too, the private directory is kept, because it holds the old files.
func (tx *worktreeTx) commit() error {
	err := tx.apply()
	if err == nil {
		return nil
	}
	if rerr := tx.rollback(); rerr != nil {
		return fmt.Errorf("%w; undoing the steps already done failed too, the replaced files are in %s or beside "+
			"their paths as %s-*: %w", err, tx.dir, tx.dir, rerr)
	}
	tx.finish()
	return err
}

func (tx *worktreeTx) apply() error {
	removes := slices.Clone(tx.plan.removes)
	slices.Reverse(removes) // children before the directories they empty
	for _, p := range removes {
		if err := tx.remove(p); err != nil {
			return err
		}
	}
	for _, p := range tx.plan.writes {
		e, err := tx.place(p, tx.plan.target[p])
		if err != nil {
			return err
		}
		tx.entries = append(tx.entries, e)
	}
	return nil
}

// setIndex records the committed change in ix.
func (tx *worktreeTx) setIndex(ix *gitwrite.IndexFile) {
	for _, p := range tx.plan.removes {
		ix.RemoveName(p)
	}
	for _, e := range tx.entries {
		ix.Set(e)
	}
}

// finish removes the files staged beside their paths that are still there (not placed, or the old files
// an exchange put there) and the private directory (the staged files left, and the old files once
// committed), and closes what tx opened.
func (tx *worktreeTx) finish() {
	for _, name := range tx.staged {
		if !strings.HasPrefix(name, tx.dir+"/") {
			tx.wt.Remove(filepath.FromSlash(name))
		}
	}
	tx.wt.RemoveAll(filepath.FromSlash(tx.dir))
	tx.close()
}

// close releases the directory handles of tx; it may be called again.
func (tx *worktreeTx) close() {
	tx.wt.Close()
}

// remove moves the worktree file p aside (already gone, or behind a symlink, is fine: git sees no file there
// either) and then removes the directories it leaves empty.
func (tx *worktreeTx) remove(p string) error {
	if err := tx.wt.CheckParents(p); err != nil {
		return nil
	}
	fi, err := tx.wt.Lstat(filepath.FromSlash(p))
	if err != nil || fi.IsDir() {
		return nil // gone, or a submodule's directory: leave it
	}
	if err := tx.moveAside(p); err != nil {
		return fmt.Errorf("removing %s: %w", p, err)
	}
	for dir := range gitfmt.ParentDirs(p) {
		if done, err := tx.rmdir(dir); err != nil || !done {
			return err
		}
	}
	return nil
}

// moveAside renames p into the private directory.
func (tx *worktreeTx) moveAside(p string) error {
	if err := fault("move"); err != nil {
		return err
	}
	b := tx.dir + "/old-" + strconv.Itoa(tx.backups)
	tx.backups++
	if err := tx.wt.Rename(filepath.FromSlash(p), filepath.FromSlash(b)); err != nil {
		return repo.PathErr(err)
	}
	tx.journal = append(tx.journal, undoStep{kind: 'm', path: p, backup: b})
	return nil
}

// rmdir removes the directory dir if it is empty and reports whether it did.
func (tx *worktreeTx) rmdir(dir string) (bool, error) {
	fi, err := tx.wt.Lstat(filepath.FromSlash(dir))
	if err != nil || !fi.IsDir() {
		return false, nil
	}
	if err := fault("rmdir"); err != nil {
		return false, err
	}
	if tx.wt.Remove(filepath.FromSlash(dir)) != nil {
		return false, nil // not empty
	}
	tx.journal = append(tx.journal, undoStep{kind: 'r', path: dir, perm: fi.Mode().Perm()})
	return true, nil
}

// mkdir creates the directory p.
func (tx *worktreeTx) mkdir(p string) error {
	if err := fault("mkdir"); err != nil {
		return err
	}
	if err := tx.wt.Mkdir(filepath.FromSlash(p), 0o755); err != nil {
		return fmt.Errorf("creating %s: %w", p, repo.PathErr(err))
	}
	tx.journal = append(tx.journal, undoStep{kind: 'd', path: p})
	return nil
}

// place puts the target's version of p into the worktree, moving aside what is there (the old version, or a
// directory the removals emptied), and returns its index entry with fresh stat data.
func (tx *worktreeTx) place(p string, b gitwrite.BlobEntry) (*index.Entry, error) {
	if err := tx.makeParents(p); err != nil {
		return nil, err
	}
	name := filepath.FromSlash(p)
	e := &index.Entry{Name: p, Hash: b.Hash, Mode: b.Mode}
	fi, err := tx.wt.Lstat(name)
	if b.Mode == filemode.Submodule && err == nil && fi.IsDir() {
		return e, nil
	}
	if err == nil && !fi.IsDir() && b.Mode != filemode.Submodule {
		if done, err := tx.exchange(p); done || err != nil {
			if err != nil {
				return nil, fmt.Errorf("writing %s: %w", p, err)
			}
			return tx.stat(e)
		}
	}
	if err == nil {
		if err := tx.moveAside(p); err != nil {
			return nil, fmt.Errorf("replacing %s: %w", p, err)
		}
	}
	if b.Mode == filemode.Submodule {
		return e, tx.mkdir(p)
	}
	if err := fault("place"); err != nil {
		return nil, err
	}
	if err := tx.wt.Rename(filepath.FromSlash(tx.staged[p]), name); err != nil {
		return nil, fmt.Errorf("writing %s: %w", p, repo.PathErr(err))
	}
	delete(tx.staged, p) // gone from where it was staged: finish has nothing to remove there
	tx.journal = append(tx.journal, undoStep{kind: 'p', path: p})
	return tx.stat(e)
}

// exchange swaps the file staged beside p with the file at p, in one step that replaces and keeps the old
// file (in the staged file's place, for finish to remove); done is false when p was not staged beside it or
// the file system cannot exchange, and the caller moves the old file aside instead.
func (tx *worktreeTx) exchange(p string) (done bool, err error) {
	staged := tx.staged[p]
	if strings.HasPrefix(staged, tx.dir+"/") || dirOf(staged) != dirOf(p) {
		return false, nil
	}
	if err := fault("exchange"); err != nil {
		return false, err
	}
	switch err := tx.wt.Exchange(filepath.FromSlash(staged), filepath.FromSlash(p)); {
	case errors.Is(err, errors.ErrUnsupported):
		return false, nil
	case err != nil:
		return false, repo.PathErr(err)
	}
	tx.journal = append(tx.journal, undoStep{kind: 'x', path: p, backup: staged})
	return true, nil
}

// stat fills e's stat data from the file just placed at its path.
func (tx *worktreeTx) stat(e *index.Entry) (*index.Entry, error) {
	fi, err := tx.wt.Lstat(filepath.FromSlash(e.Name))
	if err != nil {
		return nil, fmt.Errorf("writing %s: %w", e.Name, repo.PathErr(err))
	}
	repo.FillStat(e, fi)
	return e, nil
}

// makeParents creates the missing directories above p, refusing a symlink or file on the way.
func (tx *worktreeTx) makeParents(p string) error {
	if tx.wt.RealDir(path.Dir(p)) {
		return nil
	}
	parts := strings.Split(path.Dir(p), "/")
	if parts[0] == "." {
		return nil
	}
	for i := range parts {
		q := strings.Join(parts[:i+1], "/")
		fi, err := tx.wt.Lstat(filepath.FromSlash(q))
		switch {
		case errors.Is(err, fs.ErrNotExist):
			if err := tx.mkdir(q); err != nil {
				return err
			}
		case err != nil:
			return fmt.Errorf("checking %s: %w", q, repo.PathErr(err))
		case !fi.IsDir():
			return fmt.Errorf("writing %s: %w %q", p, gitwrite.ErrSymlinkParent, q)
		}
	}
	return tx.wt.CheckParents(p)
}

// rollback undoes the journal, newest step first, and reports what it could not undo.
func (tx *worktreeTx) rollback() error {
	var errs []error
	for i := len(tx.journal) - 1; i >= 0; i-- {
		s := tx.journal[i]
		name := filepath.FromSlash(s.path)
		var err error
		switch s.kind {
		case 'p', 'd':
			err = tx.wt.Remove(name)
		case 'm', 'x': // an exchange's backup holds the old file: renamed back over the new one
			err = tx.wt.Rename(filepath.FromSlash(s.backup), name)
		case 'r':
			err = tx.wt.Mkdir(name, s.perm)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("restoring %s: %w", s.path, repo.PathErr(err)))
		}
	}
	tx.journal, tx.entries = nil, nil
	return errors.Join(errs...)
}

// writeSymlink creates the symlink name pointing where blob o says; a target longer than a path can be is
// refused.
func writeSymlink(wt txFS, name string, o plumbing.EncodedObject) error {
	if o.Size() > gitfmt.MaxRepoPath {
		return fmt.Errorf("symbolic link target of %s, longer than a path can be", patchtext.SizeText(o.Size()))
	}
	target, err := repo.ReadPrefix(o, o.Size())
	if err != nil {
		return err
	}
	return wt.Symlink(string(target), name)
}

// smallBlob is the size up to which a staged file's blob is read whole and written by the stage pool; larger
// ones are streamed.
const smallBlob = 16 << 10

// filePerm is the permission bits of a new file of mode.
func filePerm(mode filemode.FileMode) os.FileMode {
	if mode == filemode.Executable {
		return 0o755
	}
	return 0o644
}

// writeNew creates the new file name (it must not exist) with the content of blob o; executable for mode
// 100755.
func writeNew(ctx context.Context, wt txFS, name string, o plumbing.EncodedObject, mode filemode.FileMode) error {
	f, err := wt.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, filePerm(mode))
	if err != nil {
		return err
	}
	err = repo.CopyObject(ctx, f, o)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
