package repo

import (
	"errors"
	"io/fs"
	"path"
	"path/filepath"
	"strings"

	"github.com/grove-mcp/grove/roots"
	"github.com/grove-mcp/grove/scope"
)

// RepoRel turns a path argument into a slash-separated path relative to the worktree ("" for the worktree
// itself). p is relative to the worktree, or absolute / a file:// URI inside it; anything that leaves the
// Worktree or the roots gets the same error as a missing path. The path need not exist (history of deleted
// files); it is only used to look inside git objects or, for worktree reads, through os.Root.
func (rp *Repo) RepoRel(sc *roots.Scope, p string) (string, error) {
	if p == "" || p == "." {
		return "", nil
	}
	if err := scope.RefuseTilde(p); err != nil {
		return "", err
	}
	if strings.ContainsRune(p, 0) {
		return "", roots.NotFound(p)
	}
	if roots.IsURI(p) || filepath.IsAbs(p) {
		loc, err := sc.Resolve(p)
		if err != nil {
			return "", roots.NotFound(p)
		}
		rel, ok := relTo(loc.Abs(), rp.Worktree)
		if !ok {
			if real, found := RealPath(sc, loc.Abs()); found {
				rel, ok = relTo(real, rp.Worktree)
			}
		}
		if !ok {
			return "", roots.NotFound(p)
		}
		return rel, nil
	}
	clean := path.Clean(filepath.ToSlash(p))
	if clean == "." {
		return "", nil
	}
	if clean == ".." || strings.HasPrefix(clean, "../") || strings.HasPrefix(clean, "/") {
		return "", roots.NotFound(p)
	}
	if clean == ".git" || strings.HasPrefix(clean, ".git/") {
		return "", roots.NotFound(p)
	}
	if _, err := sc.Resolve(filepath.Join(rp.Worktree, filepath.FromSlash(clean))); err != nil {
		return "", roots.NotFound(p)
	}
	return clean, nil
}

// relTo returns abs relative to dir, slash-separated ("" for dir itself), if abs lies inside dir.
func relTo(abs, dir string) (string, bool) {
	if abs == dir {
		return "", true
	}
	if !Within(dir, abs) {
		return "", false
	}
	rel, err := filepath.Rel(dir, abs)
	if err != nil {
		return "", false
	}
	rel = filepath.ToSlash(rel)
	if rel == ".git" || strings.HasPrefix(rel, ".git/") {
		return "", false
	}
	return rel, true
}

// PathErr drops the path from an *fs.PathError: error texts name what the client sent, not real paths.
func PathErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
