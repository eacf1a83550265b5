package gittools

// Paths the write tools take from the model, and the os.Root every worktree read and write goes through.

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/grove-mcp/grove/roots"
	"github.com/grove-mcp/grove/scope"
)

// errSymlinkParent marks a path that lies behind a symbolic link in the worktree; git refuses those too
// ("beyond a symbolic link"), and following one could leave the worktree.
var errSymlinkParent = errors.New("path is beyond a symbolic link")

// openWorktree opens the repository's worktree as an os.Root, so that no read or write can leave it, not even
// through a symlink swapped in mid-operation.
func (rp *repo) openWorktree() (*os.Root, error) {
	wt, err := rp.loc.FS().OpenRoot(rp.loc.Name())
	if err != nil {
		return nil, fmt.Errorf("opening the worktree: %w", err)
	}
	return wt, nil
}

// openDir opens abs, a directory of the repository's git dir or common dir (real paths that open checked lie
// inside the roots), as an os.Root: through the worktree's root when it lies there, as it usually does.
func (rp *repo) openDir(abs string) (*os.Root, error) {
	rel, err := filepath.Rel(rp.loc.Root.Path, abs)
	if err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel) {
		return rp.loc.FS().OpenRoot(rel)
	}
	return os.OpenRoot(abs)
}

// worktreePath turns a path argument (relative to the worktree, or absolute or a file:// URI inside it) into a
// clean slash-separated path relative to the worktree ("." for the worktree itself). It refuses option-like
// names, ".." components, anything outside the worktree and anything inside .git.
func (rp *repo) worktreePath(sc *roots.Scope, p string) (string, error) {
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
		r, err := filepath.Rel(rp.worktree, loc.Abs())
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
	if isGitPath(rel) {
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

// isGitPath reports whether rel names .git or something inside it, in any letter case (git refuses these on
// case-insensitive filesystems, and we refuse them everywhere).
func isGitPath(rel string) bool {
	for _, c := range strings.Split(rel, "/") {
		if strings.EqualFold(c, ".git") {
			return true
		}
	}
	return false
}

// checkParents makes sure every leading directory of rel is a real directory, not a symlink or a file.
// A missing parent is not an error here (the caller decides what a missing path means).
func checkParents(wt *os.Root, rel string) error {
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
			return fmt.Errorf("%s: %w %q", rel, errSymlinkParent, p)
		}
		if !fi.IsDir() {
			return nil // a file where a directory would be: the path does not exist
		}
	}
	return nil
}

// under reports whether the slash path p is dir or lies inside it ("." holds everything).
func under(dir, p string) bool {
	return dir == "." || p == dir || strings.HasPrefix(p, dir+"/")
}

// pathErr drops the path from an *fs.PathError: error texts name what the client sent, not real paths.
func pathErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
