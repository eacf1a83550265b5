package scan

import (
	"context"
	"maps"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/grove-mcp/grove/gittools/internal/gitfmt"
	"github.com/grove-mcp/grove/gittools/internal/repo"
)

// stagedState is the last X column Warm computed, with what it was computed from.
type stagedState struct {
	tree plumbing.Hash
	idx  *gitfmt.Index
	out  map[string]byte
}

// Staged is [Staged] remembering its answer: the same HEAD tree and index give it again, and an index
// that changed is compared again only for the names whose entries changed (see diffIndex), so that a
// repository whose index has no valid cache-tree doesn't pay a walk of HEAD's whole tree per status.
func (w *Warm) Staged(rp *repo.Repo, ctx context.Context, idx *gitfmt.Index) (map[string]byte, error) {
	head, err := rp.HeadCommit()
	if err != nil {
		return nil, err
	}
	var tree plumbing.Hash
	if head != nil {
		tree = head.TreeHash
	}
	if s := w.staged; s != nil && s.tree == tree {
		if s.idx == idx {
			return maps.Clone(s.out), nil
		}
		if names := diffIndex(s.idx, idx); len(names) <= maxWarmPaths(idx) {
			if err := s.update(rp, idx, names); err == nil {
				s.idx = idx
				return maps.Clone(s.out), nil
			}
		}
	}
	w.staged = nil
	out, err := TreeVsIndex(rp, ctx, idx, tree)
	if err != nil {
		return nil, err
	}
	w.staged = &stagedState{tree: tree, idx: idx, out: out}
	return maps.Clone(out), nil
}

// update recomputes the X column of names against idx, as TreeVsIndex would.
func (s *stagedState) update(rp *repo.Repo, idx *gitfmt.Index, names []string) error {
	look := repo.NewTreeLookup(rp)
	for _, p := range names {
		delete(s.out, p)
		var hit struct {
			Hash  plumbing.Hash
			Mode  filemode.FileMode
			Found bool
		}
		if !s.tree.IsZero() {
			h, err := look.Find(s.tree, p)
			if err != nil {
				s.out = nil
				return err
			}
			hit.Hash, hit.Mode, hit.Found = h.Hash, h.Mode, h.Found && h.Mode != filemode.Dir
		}
		i, inIndex := idx.Find(p)
		switch {
		case !inIndex:
			if hit.Found {
				s.out[p] = 'D'
			}
		case idx.Entries[i].Stage != 0:
		case idx.Entries[i].IntentToAdd:
			if hit.Found {
				s.out[p] = 'D' // see diffTreeIndex
			}
		case !hit.Found:
			s.out[p] = 'A'
		default:
			if c := compareEntry(hit.Mode, hit.Hash, idx.Entries[i].Mode, idx.Entries[i].Hash); c != 0 {
				s.out[p] = c
			}
		}
	}
	return nil
}
