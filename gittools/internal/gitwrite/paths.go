package gitwrite

// Paths the write tools take from the model, and the os.Root every worktree read and write goes through.

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/grove-mcp/grove/gittools/internal/repo"

	"github.com/grove-mcp/grove/roots"
	"github.com/grove-mcp/grove/scope"
)

// ErrSymlinkParent marks a path that lies behind a symbolic link in the worktree; git refuses those too
// ("beyond a symbolic link"), and following one could leave the worktree.
var ErrSymlinkParent = errors.New("path is beyond a symbolic link")

// OpenWorktree opens the repository's worktree as an os.Root, so that no read or write can leave it, not even
// through a symlink swapped in mid-operation.
func OpenWorktree(rp *repo.Repo) (*os.Root, error) {
	if err := rp.Writable(); err != nil {
		return nil, err
	}
	wt, err := rp.Loc.FS().OpenRoot(rp.Loc.Name())
	if err != nil {
		return nil, fmt.Errorf("opening the worktree: %w", err)
	}
	return wt, nil
}

// openDir opens abs, a directory of the repository's git dir or common dir, as a new os.Root: relative to the
// handles the repository pinned through the roots (repo.Repo.OpenDir), never by path. The caller closes it.
func openDir(rp *repo.Repo, abs string) (*os.Root, error) {
	return rp.OpenDir(abs)
}

// WorktreePath turns a path argument (relative to the worktree, or absolute or a file:// URI inside it) into a
// clean slash-separated path relative to the worktree ("." for the worktree itself). It refuses option-like
// names, ".." components, anything outside the worktree and anything inside .git.
func WorktreePath(rp *repo.Repo, sc *roots.Scope, p string) (string, error) {
	if p == "" {
		return "", errors.New("empty path")
	}
	if err := scope.RefuseTilde(p); err != nil {
		return "", err
	}
	if strings.HasPrefix(p, "-") {
		return "", fmt.Errorf("refusing %q: paths must not start with '-'", p)
	}
	if strings.ContainsRune(p, 0) {
		return "", fmt.Errorf("refusing %q: NUL in path", p)
	}
	var rel string
	if filepath.IsAbs(p) || strings.HasPrefix(p, "file:") {
		if hasDotDot(filepath.ToSlash(p)) {
			return "", fmt.Errorf("refusing %q: '..' is not allowed", p)
		}
		loc, err := sc.Resolve(p)
		if err != nil {
			return "", fmt.Errorf("path %q is not inside the repository: %w", p, roots.ErrNotFound)
		}
		r, err := filepath.Rel(rp.Worktree, loc.Abs())
		if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) || filepath.IsAbs(r) {
			return "", fmt.Errorf("path %q is not inside the repository: %w", p, roots.ErrNotFound)
		}
		rel = filepath.ToSlash(r)
	} else {
		if hasDotDot(filepath.ToSlash(p)) {
			return "", fmt.Errorf("refusing %q: '..' is not allowed", p)
		}
		rel = path.Clean(filepath.ToSlash(p))
	}
	if IsGitPath(rel) {
		return "", fmt.Errorf("refusing %q: paths inside .git are not allowed", p)
	}
	return rel, nil
}

// hasDotDot reports whether the slash path p has a ".." component.
func hasDotDot(p string) bool {
	for _, c := range strings.Split(p, "/") {
		if c == ".." {
			return true
		}
	}
	return false
}

// IsGitPath reports whether rel names .git or something inside it, in any letter case (git refuses these on
// case-insensitive filesystems, and we refuse them everywhere).
func IsGitPath(rel string) bool {
	for _, c := range strings.Split(rel, "/") {
		if strings.EqualFold(c, ".git") {
			return true
		}
	}
	return false
}

// CheckParents makes sure every leading directory of rel is a real directory, not a symlink or a file.
// A missing parent is not an error here (the caller decides what a missing path means).
func CheckParents(wt *os.Root, rel string) error {
	dir := path.Dir(rel)
	if dir == "." {
		return nil
	}
	parts := strings.Split(dir, "/")
	for i := range parts {
		p := strings.Join(parts[:i+1], "/")
		fi, err := wt.Lstat(filepath.FromSlash(p))
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			return fmt.Errorf("%s: %w %q", rel, ErrSymlinkParent, p)
		}
		if !fi.IsDir() {
			return nil // a file where a directory would be: the path does not exist
		}
	}
	return nil
}

// Under reports whether the slash path p is dir or lies inside it ("." holds everything).
func Under(dir, p string) bool {
	return dir == "." || p == dir || strings.HasPrefix(p, dir+"/")
}
