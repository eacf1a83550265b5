package gittools

import (
	"context"
	"path"

	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// scanTracked compares only the index entries under limit with the worktree, without walking the tree: what
// git_diff with a path needs. A path below a symlinked or missing directory counts as deleted, as in git.
func (rp *repo) scanTracked(ctx context.Context, idx *gitIndex, limit string) (*wtScan, error) {
	s := &wtScan{changed: map[string]byte{}}
	lo, hi := idx.prefixRange(limit)
	if i, ok := idx.byName[limit]; ok {
		lo, hi = i, i+1
	}
	dirOK := map[string]bool{".": true}
	for i := lo; i < hi; i++ {
		if (i-lo)%256 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		e := idx.entries[i]
		if e.stage != 0 || e.skipWorktree || i > lo && idx.entries[i-1].name == e.name {
			continue
		}
		if !rp.realDir(path.Dir(e.name), dirOK) {
			s.changed[e.name] = 'D'
			continue
		}
		info, err := rp.loc.Join(e.name).Lstat()
		switch {
		case err != nil:
			s.changed[e.name] = 'D'
		case info.IsDir():
			if e.mode != filemode.Submodule {
				s.changed[e.name] = 'D'
			}
		default:
			if c := rp.compareFile(e, e.name, info, idx); c != 0 {
				s.changed[e.name] = c
			}
		}
	}
	return s, nil
}

// realDir reports whether dir and each of its parents is a real directory (not a symlink), memoised in ok.
func (rp *repo) realDir(dir string, ok map[string]bool) bool {
	if v, seen := ok[dir]; seen {
		return v
	}
	v := rp.realDir(path.Dir(dir), ok)
	if v {
		info, err := rp.loc.Join(dir).Lstat()
		v = err == nil && info.IsDir()
	}
	ok[dir] = v
	return v
}
