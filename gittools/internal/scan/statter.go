package scan

import (
	"io/fs"
	"os"
	"path"

	"github.com/grove-mcp/grove/gittools/internal/repo"
)

// statter lstats worktree files through an os.Root opened on their directory, so each lstat is one fstatat
// instead of an openat per path component (os.Root.Lstat of a deep path): the status walk's main cost.
// Directories are opened from their parent's handle (one openat each), not from the worktree's.
type statter struct {
	base   *os.Root
	prefix string              // the worktree, relative to base
	dirs   map[string]*os.Root // by slash-separated path relative to the worktree, "" for the worktree
}

// maxOpenDirs bounds the directory handles a statter keeps; callers go through paths in index or walk order,
// so the directories in use at once are few: the current one and its parents.
const maxOpenDirs = 128

func newStatter(rp *repo.Repo) *statter {
	return &statter{base: rp.Loc.FS(), prefix: rp.Loc.Rel, dirs: map[string]*os.Root{}}
}

// lstat describes rel (slash-separated, relative to the worktree) without following a final symlink.
func (s *statter) lstat(rel string) (fs.FileInfo, error) {
	if len(s.dirs) >= maxOpenDirs {
		s.close()
	}
	dir, name := path.Split(rel)
	r, err := s.dir(dir)
	if err != nil {
		return nil, err
	}
	return r.Lstat(name)
}

// dir returns the handle of directory d ("" or ending in "/"), opening it and any missing parent.
func (s *statter) dir(d string) (*os.Root, error) {
	if r, ok := s.dirs[d]; ok {
		return r, nil
	}
	var r *os.Root
	var err error
	if d == "" {
		r, err = s.base.OpenRoot(s.prefix)
	} else {
		parent, name := path.Split(d[:len(d)-1])
		var p *os.Root
		if p, err = s.dir(parent); err != nil {
			return nil, err
		}
		r, err = p.OpenRoot(name)
	}
	if err != nil {
		return nil, err
	}
	s.dirs[d] = r
	return r, nil
}

func (s *statter) close() {
	for k, r := range s.dirs {
		r.Close()
		delete(s.dirs, k)
	}
}
