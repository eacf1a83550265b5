package writecmd

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"

	"github.com/grove-mcp/grove/gittools/internal/gitwrite"

	"github.com/grove-mcp/grove/gittools/internal/repo"

	"github.com/grove-mcp/grove/ignore"
)

// stager is one git_add call: the worktree, the index being changed, and what changed.
type stager struct {
	rp       *repo.Repo
	wt       *os.Root
	Ix       *gitwrite.IndexFile
	matcher  *ignore.Matcher // built on first use
	conv     *gitwrite.Conversions
	fileMode bool

	seen                     map[string]bool // paths staged or found unchanged by this call
	Dirty                    bool            // the index changed (content or stat data)
	Staged, Removed, Skipped []string
}

func newStager(rp *repo.Repo) (*stager, error) {
	wt, err := gitwrite.OpenWorktree(rp)
	if err != nil {
		return nil, err
	}
	ix, err := gitwrite.LoadIndex(rp)
	if err != nil {
		wt.Close()
		return nil, err
	}
	return &stager{rp: rp, wt: wt, Ix: ix, fileMode: gitwrite.FileModeTrusted(rp), conv: gitwrite.NewConversions(rp, wt), seen: map[string]bool{}}, nil
}

func (st *stager) Close() {
	st.Ix.Close()
	st.wt.Close()
}

// addDir stages the non-ignored contents of the directory rel ("." for the whole worktree) and the deletion
// of tracked files under it that are gone. The walk never follows symlinks (a symlink is staged as a link) and
// never enters .git or a nested repository.
func (st *stager) addDir(ctx context.Context, rel string) error {
	if st.matcher == nil {
		st.matcher = st.rp.NewMatcher()
	}
	err := st.matcher.Walk(ctx, func(p string, d fs.DirEntry) error {
		p = path.Clean(p)
		if d.IsDir() {
			return st.enterDir(rel, p)
		}
		if !gitwrite.Under(rel, p) || gitwrite.IsGitPath(p) {
			return nil
		}
		t := d.Type()
		if t.IsRegular() || t&fs.ModeSymlink != 0 {
			return st.addWalked(ctx, p)
		}
		st.Skipped = append(st.Skipped, p)
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
	if !gitwrite.Under(rel, p) && !gitwrite.Under(p, rel) || gitwrite.IsGitPath(p) {
		return fs.SkipDir
	}
	if gitwrite.Under(rel, p) && p != rel && st.nestedRepo(p) {
		st.Skipped = append(st.Skipped, p+"/")
		return fs.SkipDir
	}
	return nil
}

// addWalked stages a file the walk found (the walk never follows symlinks, so its parents were real
// directories; os.Root keeps a later swap inside the worktree). Files that vanished or turned into something
// else meanwhile are left for removeMissing or skipped.
func (st *stager) addWalked(ctx context.Context, p string) error {
	err := st.addFile(ctx, p)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, gitwrite.ErrNotFile) {
		st.Skipped = append(st.Skipped, p)
		return nil
	}
	return err
}

// nestedRepo reports whether the directory p holds a repository of its own (git would record a submodule).
func (st *stager) nestedRepo(p string) bool {
	_, err := st.wt.Lstat(filepath.FromSlash(p + "/.git"))
	return err == nil
}
