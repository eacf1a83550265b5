package gittools

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"syscall"

	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/grove-mcp/grove/ignore"
	"github.com/grove-mcp/grove/roots"
)

// AddArgs are the arguments of git_add.
type AddArgs struct {
	RepoPath string   `json:"repo_path,omitempty" jsonschema:"absolute path or file:// URI inside a root; optional when there is exactly one root"`
	Files    []string `json:"files" jsonschema:"paths to stage, relative to the worktree or absolute inside it; a directory stages its non-ignored contents, a missing tracked path stages its deletion"`
}

// AddOut is the result of git_add.
type AddOut struct {
	Staged  []string `json:"staged,omitempty" jsonschema:"paths whose new content or mode was staged"`
	Removed []string `json:"removed,omitempty" jsonschema:"paths whose deletion was staged"`
	Skipped []string `json:"skipped,omitempty" jsonschema:"nested repositories and special files that were not staged"`
}

func (r *Repos) add(ctx context.Context, _ *mcp.CallToolRequest, sc *roots.Scope, in AddArgs) (*mcp.CallToolResult, AddOut, error) {
	if len(in.Files) == 0 {
		return nil, AddOut{}, errors.New("files is empty: name at least one path to stage")
	}
	rp, unlock, err := r.open(ctx, sc, in.RepoPath)
	if err != nil {
		return nil, AddOut{}, err
	}
	defer unlock()
	rels, err := rp.worktreePaths(sc, in.Files)
	if err != nil {
		return nil, AddOut{}, err
	}
	st, err := rp.newStager()
	if err != nil {
		return nil, AddOut{}, err
	}
	defer st.close()
	for _, rel := range rels {
		if err := st.addPath(ctx, rel); err != nil {
			return nil, AddOut{}, err
		}
	}
	if st.dirty || len(st.removed) > 0 {
		if err := st.ix.save(); err != nil {
			return nil, AddOut{}, err
		}
		rp.changed()
	}
	slices.Sort(st.staged)
	out := AddOut{Staged: st.staged, Removed: st.removed, Skipped: st.skipped}
	return textResult(addText(out)), out, nil
}

// worktreePaths validates every path argument before anything is changed.
func (rp *repo) worktreePaths(sc *roots.Scope, ps []string) ([]string, error) {
	rels := make([]string, 0, len(ps))
	for _, p := range ps {
		rel, err := rp.worktreePath(sc, p)
		if err != nil {
			return nil, err
		}
		rels = append(rels, rel)
	}
	return rels, nil
}

func addText(out AddOut) string {
	if len(out.Staged)+len(out.Removed) == 0 {
		return "Nothing changed in the index: the files were already staged as they are." + listText("skipped", out.Skipped)
	}
	return "Staged." + listText("changed", out.Staged) + listText("deleted", out.Removed) + listText("skipped", out.Skipped)
}

// addPath stages one validated path: a file or symlink, a directory's contents, or a deletion.
func (st *stager) addPath(ctx context.Context, rel string) error {
	if err := checkParents(st.wt, rel); err != nil {
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
		if st.ix.entry(rel) == nil && st.ignored(rel) {
			return fmt.Errorf("%q is ignored by a .gitignore or exclude file; not staged", rel)
		}
		return st.addFile(ctx, rel)
	}
	return fmt.Errorf("%q: %w", rel, errNotFile)
}

// addFile stages a regular file or symlink, without reading it again when its stat data says it is unchanged.
func (st *stager) addFile(ctx context.Context, rel string) error {
	st.seen[rel] = true
	var keep filemode.FileMode
	old := st.ix.entry(rel)
	if old != nil {
		keep = old.Mode
		fi, err := st.wt.Lstat(filepath.FromSlash(rel))
		if err == nil && entryUnchanged(old, fi, st.ix.idx.ModTime, entryMode(fi, st.fileMode, keep)) &&
			!st.ix.conflicted(rel) {
			return nil
		}
	}
	e, err := st.rp.worktreeEntry(ctx, st.wt, rel, st.fileMode, keep, st.conv)
	if err != nil {
		return err
	}
	if old == nil || old.Hash != e.Hash || old.Mode != e.Mode || st.ix.conflicted(rel) {
		st.staged = append(st.staged, rel)
	}
	st.ix.set(e)
	st.dirty = true
	return nil
}

// removeMissing stages the deletion of every tracked path at or under rel that is gone from the worktree.
func (st *stager) removeMissing(rel string) int {
	n := st.ix.remove(func(name string) bool {
		if !under(rel, name) || st.seen[name] || !st.missing(name) {
			return false
		}
		st.removed = append(st.removed, name)
		return true
	})
	slices.Sort(st.removed)
	st.removed = slices.Compact(st.removed)
	return n
}

// missing reports whether the tracked path name no longer exists in the worktree (or lies behind a symlink,
// which to git means the same).
func (st *stager) missing(name string) bool {
	if errors.Is(checkParents(st.wt, name), errSymlinkParent) {
		return true
	}
	_, err := st.wt.Lstat(filepath.FromSlash(name))
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)
}

// ignored reports whether rel is ignored; the matcher is built on first use.
func (st *stager) ignored(rel string) bool {
	if st.matcher == nil {
		m, err := ignore.New(st.rp.worktree)
		if err != nil {
			return false
		}
		st.matcher = m
	}
	return st.matcher.Ignored(rel, false)
}
