package repo

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/grove-mcp/grove/gittools/internal/gitfmt"
)

// derived holds what is computed from the repository state and dropped when it changes (see repo.refresh).
type derived struct {
	index *gitfmt.Index
	core  *Core
}

// Core is what the repository's config (with config.worktree) says about comparing worktree files.
type Core struct {
	FileMode bool // core.fileMode (default true): false ignores the executable bit
	Symlinks bool // core.symlinks (default true): false checks symlinks out as plain files holding the target
}

// Core returns the core settings, cached until the config files change; an unreadable config gives git's
// defaults (opening the repository already read it).
func (rp *Repo) Core() Core {
	if rp.derived.core != nil {
		return *rp.derived.core
	}
	c := Core{FileMode: true, Symlinks: true}
	if cfg, err := rp.Git.Config(); err == nil {
		core := cfg.Raw.Section("core").Options
		c.FileMode = configBool(core.Get("filemode"), true)
		c.Symlinks = configBool(core.Get("symlinks"), true)
	}
	rp.derived.core = &c
	return c
}

// configBool reads a git boolean; anything unknown is def.
func configBool(v string, def bool) bool {
	switch strings.ToLower(v) {
	case "true", "yes", "on", "1":
		return true
	case "false", "no", "off", "0", "":
		if v == "" {
			return def
		}
		return false
	}
	return def
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
	hashLen := keyLen
	if rp.SHA256() {
		hashLen = sha256Len
	}
	idx, err := gitfmt.ReadIndexHash(rp.dirs.git.root, "index", hashLen)
	if err != nil {
		return nil, rp.Noted(err)
	}
	if idx.Sparse {
		if err := rp.expandSparse(idx); err != nil {
			return nil, fmt.Errorf("expanding the sparse index: %w", err)
		}
	}
	rp.derived.index = idx
	return idx, nil
}

// expandSparse replaces the sparse-directory entries of a sparse index with the files of their trees, marked
// skip-worktree as git marks the files outside a sparse checkout, so that every engine sees a full index.
func (rp *Repo) expandSparse(idx *gitfmt.Index) error {
	out := make([]gitfmt.IndexEntry, 0, len(idx.Entries))
	budget := NewTreeBudget()
	for _, e := range idx.Entries {
		if !e.SkipWorktree || e.Mode != filemode.Dir {
			out = append(out, e)
			continue
		}
		err := WalkTree(rp, context.Background(), e.Hash, strings.TrimSuffix(e.Name, "/"), budget, nil, func(p string, te object.TreeEntry) {
			out = append(out, gitfmt.IndexEntry{Name: p, Hash: te.Hash, Mode: te.Mode, SkipWorktree: true})
		})
		if err != nil {
			return err
		}
	}
	slices.SortStableFunc(out, func(a, b gitfmt.IndexEntry) int {
		if c := strings.Compare(a.Name, b.Name); c != 0 {
			return c
		}
		return a.Stage - b.Stage
	})
	idx.ReplaceEntries(out)
	return nil
}
