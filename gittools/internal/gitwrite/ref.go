package gitwrite

// Writing refs the way git does: an exclusive <ref>.lock, a check of the current value while holding it, then
// a rename, all through an os.Root of the git dir. go-git's SetReference truncates the ref file in place,
// which git's readers can catch empty, and takes a flock that git does not honour.

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/grove-mcp/grove/gittools/internal/repo"

	"github.com/go-git/go-git/v5/plumbing"
)

// errRefMoved is returned when a ref no longer has the value the operation started from.
var errRefMoved = errors.New("it changed while grove was working (another git command?); nothing was written, retry")

// UpdateRef sets ref to r's value if it currently equals old (nil: it must not exist).
func UpdateRef(rp *repo.Repo, r, old *plumbing.Reference) error {
	l, err := LockRef(rp, r, old)
	if err != nil {
		return err
	}
	return l.Commit()
}

// LockRef takes r's lock and writes r's value into it, once the ref currently equals old (nil: it must not
// exist); Commit then sets the ref. HEAD lives in the git dir; other refs in the common dir (they differ in a
// linked worktree).
func LockRef(rp *repo.Repo, r, old *plumbing.Reference) (*LockedFile, error) {
	if err := rp.Writable(); err != nil {
		return nil, err
	}
	dirPath := rp.CommonDir
	if r.Name() == plumbing.HEAD {
		dirPath = rp.GitDir
	}
	dir, err := openDir(rp, dirPath)
	if err != nil {
		return nil, err
	}
	name := filepath.FromSlash(r.Name().String())
	if err := dir.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		dir.Close()
		return nil, fmt.Errorf("creating %s: %w", r.Name(), err)
	}
	l, err := lockFile(dir, name, true)
	if err != nil {
		dir.Close()
		return nil, err
	}
	err = checkRef(rp, r.Name(), old)
	if err == nil {
		err = l.Write([]byte(refContent(r)))
	}
	if err != nil {
		l.Abort()
		return nil, fmt.Errorf("updating %s: %w", r.Name(), err)
	}
	return l, nil
}

// checkRef compares the current value of name (loose or packed, not followed) with old.
func checkRef(rp *repo.Repo, name plumbing.ReferenceName, old *plumbing.Reference) error {
	cur, err := rp.Git.Storer.Reference(name)
	switch {
	case errors.Is(err, plumbing.ErrReferenceNotFound):
		if old != nil {
			return errRefMoved
		}
		return nil
	case err != nil:
		return err
	case old == nil:
		return fmt.Errorf("%s already exists", name.Short())
	case refContent(cur) != refContent(old):
		return errRefMoved
	}
	return nil
}

// refContent is the text git keeps in a loose ref file.
func refContent(r *plumbing.Reference) string {
	if r.Type() == plumbing.SymbolicReference {
		return "ref: " + r.Target().String() + "\n"
	}
	return r.Hash().String() + "\n"
}

// RefClash returns an existing ref that name cannot coexist with in git's ref namespace (refs/heads/a blocks
// refs/heads/a/b and the other way round), or "".
func RefClash(rp *repo.Repo, name plumbing.ReferenceName) (string, error) {
	iter, err := rp.Git.Storer.IterReferences()
	if err != nil {
		return "", err
	}
	defer iter.Close()
	clash := ""
	err = iter.ForEach(func(r *plumbing.Reference) error {
		n := r.Name().String()
		if strings.HasPrefix(n, name.String()+"/") || strings.HasPrefix(name.String(), n+"/") {
			clash = n
		}
		return nil
	})
	return clash, err
}
