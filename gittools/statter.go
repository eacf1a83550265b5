package gittools

import (
	"io/fs"
	"os"
	"path"
)

// statter lstats worktree files through an os.Root opened on their directory, so each lstat is one fstatat
// instead of an openat per path component (os.Root.Lstat of a deep path): the status walk's main cost.
type statter struct {
	base   *os.Root
	prefix string // the worktree, relative to base
	dirs   map[string]*os.Root
}

// maxOpenDirs bounds the directory handles a statter keeps; the walk is depth-first, so few are live at once.
const maxOpenDirs = 64

func (rp *repo) newStatter() *statter {
	return &statter{base: rp.loc.FS(), prefix: rp.loc.Rel, dirs: map[string]*os.Root{}}
}

// lstat describes rel (slash-separated, relative to the worktree) without following a final symlink.
func (s *statter) lstat(rel string) (fs.FileInfo, error) {
	dir, name := path.Split(rel)
	r, ok := s.dirs[dir]
	if !ok {
		if len(s.dirs) >= maxOpenDirs {
			s.close()
		}
		var err error
		if r, err = s.base.OpenRoot(path.Join(s.prefix, dir)); err != nil {
			return nil, err
		}
		s.dirs[dir] = r
	}
	return r.Lstat(name)
}

func (s *statter) close() {
	for k, r := range s.dirs {
		r.Close()
		delete(s.dirs, k)
	}
}
