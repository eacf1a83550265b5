// Package writecmd owns the write commands and their arguments and answers:
// add, commit, create branch, checkout, reset, init and create tag, each
// built from gitwrite's plumbing on an open, locked repository. The MCP
// handlers in gittools open the repository and call these.
//
//	out, err := writecmd.Add(ctx, env, writecmd.AddArgs{Files: []string{"a.txt"}}) // git_add
//	text := out.Text()
package writecmd

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/grove-mcp/grove/gittools/internal/gitwrite"

	"github.com/grove-mcp/grove/gittools/internal/repo"

	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/grove-mcp/grove/roots"
)

// AddArgs are the arguments of git_add.
type AddArgs struct {
	RepoPath string   `json:"repo_path,omitempty" jsonschema:"the repository or a directory in it: absolute path or file:// URI inside a root (default: the only root; with several, the root holding the first absolute path in files)"`
	Files    []string `json:"files" jsonschema:"paths to stage, relative to the worktree or absolute inside it; a directory stages its non-ignored contents, a missing tracked path stages its deletion"`
}

// AddOut is the result of git_add.
type AddOut struct {
	Staged  []string `json:"staged,omitempty" jsonschema:"paths whose new content or mode was staged"`
	Removed []string `json:"removed,omitempty" jsonschema:"paths whose deletion was staged"`
	Skipped []string `json:"skipped,omitempty" jsonschema:"nested repositories and special files that were not staged"`
}

// WorktreePaths validates every path argument before anything is changed.
func WorktreePaths(rp *repo.Repo, sc *roots.Scope, ps []string) ([]string, error) {
	rels := make([]string, 0, len(ps))
	for _, p := range ps {
		rel, err := gitwrite.WorktreePath(rp, sc, p)
		if err != nil {
			return nil, err
		}
		rels = append(rels, rel)
	}
	return rels, nil
}

// Add runs git_add: it stages in.Files (contents, modes and deletions) and saves the index.
func Add(ctx context.Context, env Env, in AddArgs) (AddOut, error) {
	if len(in.Files) == 0 {
		return AddOut{}, errors.New("files is empty: name at least one path to stage")
	}
	rp, unlock, err := env.Open(ctx, in.RepoPath, in.Files...)
	if err != nil {
		return AddOut{}, err
	}
	defer unlock()
	rels, err := WorktreePaths(rp, env.Scope, in.Files)
	if err != nil {
		return AddOut{}, err
	}
	st, err := newStager(rp)
	if err != nil {
		return AddOut{}, err
	}
	defer st.Close()
	for _, rel := range rels {
		if err := st.AddPath(ctx, rel); err != nil {
			return AddOut{}, err
		}
	}
	if st.Dirty || len(st.Removed) > 0 {
		if err := st.Ix.Save(); err != nil {
			return AddOut{}, err
		}
		rp.Changed()
	}
	slices.Sort(st.Staged)
	return AddOut{Staged: st.Staged, Removed: st.Removed, Skipped: st.Skipped}, nil
}

// Text is git_add's answer for the model.
func (out AddOut) Text() string {
	if len(out.Staged)+len(out.Removed) == 0 {
		return "Nothing changed in the index: the files were already staged as they are." + ListText("skipped", out.Skipped)
	}
	return "Staged." + ListText("changed", out.Staged) + ListText("deleted", out.Removed) + ListText("skipped", out.Skipped)
}

// AddPath stages one validated path: a file or symlink, a directory's contents, or a deletion.
func (st *stager) AddPath(ctx context.Context, rel string) error {
	if err := gitwrite.CheckParents(st.wt, rel); err != nil {
		return err
	}
	fi, err := st.wt.Lstat(filepath.FromSlash(rel))
	switch {
	case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR):
		if st.removeMissing(rel) == 0 {
			return fmt.Errorf("pathspec %q did not match any files", rel)
		}
		return nil
	case err != nil:
		return err
	case fi.IsDir() && rel != "." && st.nestedRepo(rel):
		return fmt.Errorf("%q is a nested git repository; grove does not stage submodules", rel)
	case fi.IsDir():
		return st.addDir(ctx, rel)
	case fi.Mode().IsRegular() || fi.Mode()&fs.ModeSymlink != 0:
		if st.Ix.Entry(rel) == nil && st.ignored(rel) {
			return fmt.Errorf("%q is ignored by a .gitignore or exclude file; not staged", rel)
		}
		return st.addFile(ctx, rel)
	}
	return fmt.Errorf("%q: %w", rel, gitwrite.ErrNotFile)
}

// addFile stages a regular file or symlink, without reading it again when its stat data says it is unchanged.
func (st *stager) addFile(ctx context.Context, rel string) error {
	st.seen[rel] = true
	var keep filemode.FileMode
	old := st.Ix.Entry(rel)
	if old != nil {
		keep = old.Mode
		fi, err := st.wt.Lstat(filepath.FromSlash(rel))
		if err == nil && gitwrite.EntryUnchanged(old, fi, st.Ix.Idx.ModTime, gitwrite.EntryMode(fi, st.fileMode, keep)) &&
			!st.Ix.Conflicted(rel) {
			return nil
		}
	}
	e, err := gitwrite.WorktreeEntry(st.rp, ctx, st.wt, rel, st.fileMode, keep, st.conv)
	if err != nil {
		return err
	}
	if old == nil || old.Hash != e.Hash || old.Mode != e.Mode || st.Ix.Conflicted(rel) {
		st.Staged = append(st.Staged, rel)
	}
	st.Ix.Set(e)
	st.Dirty = true
	return nil
}

// removeMissing stages the deletion of every tracked path at or under rel that is gone from the worktree.
func (st *stager) removeMissing(rel string) int {
	n := st.Ix.Remove(func(name string) bool {
		if !gitwrite.Under(rel, name) || st.seen[name] || !st.missing(name) {
			return false
		}
		st.Removed = append(st.Removed, name)
		return true
	})
	slices.Sort(st.Removed)
	st.Removed = slices.Compact(st.Removed)
	return n
}

// missing reports whether the tracked path name no longer exists in the worktree (or lies behind a symlink,
// which to git means the same).
func (st *stager) missing(name string) bool {
	if errors.Is(gitwrite.CheckParents(st.wt, name), gitwrite.ErrSymlinkParent) {
		return true
	}
	_, err := st.wt.Lstat(filepath.FromSlash(name))
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)
}

// ignored reports whether rel is ignored; the matcher is built on first use.
func (st *stager) ignored(rel string) bool {
	if st.matcher == nil {
		st.matcher = st.rp.NewMatcher()
	}
	return st.matcher.Ignored(rel, false)
}

// maxListed is how many paths a write tool's text names before it summarises the rest.
const maxListed = 100

// ListText renders "\nlabel (n): a, b, …" for a non-empty list, naming at most maxListed entries; the
// structured output always holds the full list.
func ListText(label string, ps []string) string {
	if len(ps) == 0 {
		return ""
	}
	shown := ps
	if len(ps) > maxListed {
		shown = ps[:maxListed]
	}
	s := fmt.Sprintf("\n%s (%d): %s", label, len(ps), strings.Join(shown, ", "))
	if len(ps) > maxListed {
		s += fmt.Sprintf(" … and %d more (see the structured output)", len(ps)-maxListed)
	}
	return s
}
