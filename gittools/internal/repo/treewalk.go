package repo

import (
	"context"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// WalkTree calls leaf for every entry that is not a tree under tree h, whose path is dir ("" for a root
// tree), depth first in tree order, within walk's budget. When enter is not nil it is asked before each tree
// (h itself included) is read, and a false answer skips that tree: a caller that knows a subtree is
// unchanged need not read it.
func WalkTree(rp *Repo, ctx context.Context, h plumbing.Hash, dir string, walk *TreeBudget,
	enter func(dir string, h plumbing.Hash) bool, leaf func(p string, e object.TreeEntry)) error {
	if enter != nil && !enter(dir, h) {
		return nil
	}
	if err := walk.Next(ctx); err != nil {
		return err
	}
	es, err := TreeEntries(rp, h)
	if err != nil {
		return err
	}
	if err := walk.Spend(len(es)); err != nil {
		return err
	}
	for _, e := range es {
		p, err := walk.Child(dir, e.Name)
		if err != nil {
			return rp.Noted(err)
		}
		if e.Mode == filemode.Dir {
			if err := WalkTree(rp, ctx, e.Hash, p, walk, enter, leaf); err != nil {
				return err
			}
			continue
		}
		leaf(p, e)
	}
	return nil
}
