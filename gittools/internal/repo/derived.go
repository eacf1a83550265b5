package repo

import (
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/grove-mcp/grove/gittools/internal/gitfmt"
)

// derived holds what is computed from the repository state and dropped when it changes (see repo.refresh).
type derived struct {
	index *gitfmt.Index
}

// WtHash remembers the blob hash of a worktree file for given stat data, so racily clean or stat-dirty but
// unchanged files are hashed once, not on every status (we never rewrite .git/index to record it).
type WtHash struct {
	St   statKey
	Hash plumbing.Hash
}

// statKey is the stat data that identifies a file's content for our purposes.
type statKey struct {
	mtime, ctime int64
	size         int64
	ino          uint64
	mode         uint32
}

// Index returns the parsed index, cached until the index file changes.
func (rp *Repo) Index() (*gitfmt.Index, error) {
	if rp.derived.index != nil {
		return rp.derived.index, nil
	}
	idx, err := gitfmt.ReadIndex(rp.GitDir, "index")
	if err != nil {
		return nil, rp.Noted(err)
	}
	rp.derived.index = idx
	return idx, nil
}
