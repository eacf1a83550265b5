package merge

// Merging commits: the merge base found first; several bases are merged with each other, oldest first, into
// a virtual base whose conflicts stay in its files as markers (git's recursive strategy, git-merge(1)).

import (
	"context"
	"errors"
	"slices"

	"github.com/go-git/go-git/v5/plumbing"
)

// ErrUnrelated is returned when two commits have no common ancestor and Options.AllowUnrelated is false.
var ErrUnrelated = errors.New("refusing to merge unrelated histories")

// maxVirtualDepth bounds the nesting of virtual merge bases.
const maxVirtualDepth = 8

// Commits merges commit theirs into commit ours. The objects it creates are stored when it returns (see
// Store.Pack).
func Commits(ctx context.Context, s *Store, ours, theirs plumbing.Hash, opts Options, allowUnrelated bool) (*Result, error) {
	oc, err := s.Commit(ours)
	if err != nil {
		return nil, err
	}
	tc, err := s.Commit(theirs)
	if err != nil {
		return nil, err
	}
	bases, err := s.Bases(ctx, []plumbing.Hash{ours}, []plumbing.Hash{theirs})
	if err != nil {
		return nil, err
	}
	if len(bases) == 0 && !allowUnrelated {
		return nil, ErrUnrelated
	}
	base, err := s.virtualBase(ctx, bases, 0)
	if err != nil {
		return nil, err
	}
	if len(bases) == 1 {
		opts.Labels.Base = bases[0].String()[:7]
	} else if opts.Labels.Base == "" {
		opts.Labels.Base = "merged common ancestors"
	}
	res, err := trees(ctx, s, base, oc.TreeHash, tc.TreeHash, opts)
	if err != nil {
		return nil, err
	}
	if err := s.Flush(); err != nil {
		return nil, err
	}
	res.Bases = bases
	return res, nil
}

// virtualBase returns the tree to merge against: the single base's, or the bases merged with each other.
func (s *Store) virtualBase(ctx context.Context, bases []plumbing.Hash, depth int) (plumbing.Hash, error) {
	switch len(bases) {
	case 0:
		return plumbing.ZeroHash, nil
	case 1:
		c, err := s.Commit(bases[0])
		if err != nil {
			return plumbing.ZeroHash, err
		}
		return c.TreeHash, nil
	}
	if depth >= maxVirtualDepth {
		return plumbing.ZeroHash, errors.New("merge: the merge bases nest too deeply")
	}
	order := slices.Clone(bases)
	slices.Reverse(order) // oldest first
	first, err := s.Commit(order[0])
	if err != nil {
		return plumbing.ZeroHash, err
	}
	tree, parents := first.TreeHash, []plumbing.Hash{order[0]}
	for _, next := range order[1:] {
		nc, err := s.Commit(next)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		inner, err := s.Bases(ctx, parents, []plumbing.Hash{next})
		if err != nil {
			return plumbing.ZeroHash, err
		}
		innerBase, err := s.virtualBase(ctx, inner, depth+1)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		opts := Options{Labels: Labels{Base: "merged common ancestors", Ours: "Temporary merge branch 1", Theirs: "Temporary merge branch 2"}}
		res, err := trees(ctx, s, innerBase, tree, nc.TreeHash, opts)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		tree, parents = res.Tree, append(parents, next)
	}
	return tree, nil
}
