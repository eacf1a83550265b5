package gittools

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"

	"github.com/grove-mcp/grove/ignore"
)

// stager is one git_add call: the worktree, the index being changed, and what changed.
type stager struct {
	rp       *repo
	wt       *os.Root
	ix       *indexFile
	matcher  *ignore.Matcher // built on first use
	conv     *conversions
	fileMode bool

	seen                     map[string]bool // paths staged or found unchanged by this call
	dirty                    bool            // the index changed (content or stat data)
	staged, removed, skipped []string
}

func (rp *repo) newStager() (*stager, error) {
	wt, err := rp.openWorktree()
	if err != nil {
		return nil, err
	}
	ix, err := rp.loadIndex()
	if err != nil {
		wt.Close()
		return nil, err
	}
	return &stager{rp: rp, wt: wt, ix: ix, fileMode: rp.fileModeTrusted(), conv: rp.newConversions(wt), seen: map[string]bool{}}, nil
}

func (st *stager) close() {
	st.ix.close()
	st.wt.Close()
}

// addDir stages the non-ignored contents of the directory rel ("." for the whole worktree) and the deletion
// of tracked files under it that are gone. The walk never follows symlinks (a symlink is staged as a link) and
// never enters .git or a nested repository.
func (st *stager) addDir(ctx context.Context, rel string) error {
	if st.matcher == nil {
		m, err := ignore.New(st.rp.worktree)
		if err != nil {
			return fmt.Errorf("reading ignore rules: %w", err)
		}
		st.matcher = m
	}
	err := st.matcher.Walk(ctx, func(p string, d fs.DirEntry) error {
		p = path.Clean(p)
		if d.IsDir() {
			return st.enterDir(rel, p)
		}
		if !under(rel, p) || isGitPath(p) {
			return nil
		}
		t := d.Type()
		if t.IsRegular() || t&fs.ModeSymlink != 0 {
			return st.addWalked(ctx, p)
		}
		st.skipped = append(st.skipped, p)
		return nil
	})
	if err != nil {
		return err
	}
	st.removeMissing(rel)
	return nil
}

// enterDir decides whether the walk descends into the directory p while adding rel.
func (st *stager) enterDir(rel, p string) error {
	if p == "." {
		return nil
	}
	if !under(rel, p) && !under(p, rel) || isGitPath(p) {
		return fs.SkipDir
	}
	if under(rel, p) && p != rel && st.nestedRepo(p) {
		st.skipped = append(st.skipped, p+"/")
		return fs.SkipDir
	}
	return nil
}

// addWalked stages a file the walk found (the walk never follows symlinks, so its parents were real
// directories; os.Root keeps a later swap inside the worktree). Files that vanished or turned into something
// else meanwhile are left for removeMissing or skipped.
func (st *stager) addWalked(ctx context.Context, p string) error {
	err := st.addFile(ctx, p)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, errNotFile) {
		st.skipped = append(st.skipped, p)
		return nil
	}
	return err
}

// nestedRepo reports whether the directory p holds a repository of its own (git would record a submodule).
func (st *stager) nestedRepo(p string) bool {
	_, err := st.wt.Lstat(filepath.FromSlash(p + "/.git"))
	return err == nil
}
