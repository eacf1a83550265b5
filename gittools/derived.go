package gittools

import "github.com/go-git/go-git/v5/plumbing"

// derived holds what is computed from the repository state and dropped when it changes (see repo.refresh).
type derived struct {
	index *gitIndex
}

// wtHash remembers the blob hash of a worktree file for given stat data, so racily clean or stat-dirty but
// unchanged files are hashed once, not on every status (we never rewrite .git/index to record it).
type wtHash struct {
	st   statKey
	hash plumbing.Hash
}

// statKey is the stat data that identifies a file's content for our purposes.
type statKey struct {
	mtime, ctime int64
	size         int64
	ino          uint64
	mode         uint32
}

// index returns the parsed index, cached until the index file changes.
func (rp *repo) index() (*gitIndex, error) {
	if rp.derived.index != nil {
		return rp.derived.index, nil
	}
	idx, err := readIndex(rp.gitDir, "index")
	if err != nil {
		return nil, rp.noted(err)
	}
	rp.derived.index = idx
	return idx, nil
}
