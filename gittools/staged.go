package gittools

import (
	"context"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// staged compares HEAD's tree with the index, the X column of `git status --short`: 'A', 'M', 'D' or 'T'.
// A subtree whose cache-tree node is valid and equals HEAD's is skipped without reading it, so a clean index
// costs one map lookup (GIT-PERFORMANCE §6.1).
func (rp *repo) staged(ctx context.Context, idx *gitIndex) (map[string]byte, error) {
	head, err := rp.headCommit()
	if err != nil {
		return nil, err
	}
	var tree plumbing.Hash
	if head != nil {
		tree = head.TreeHash
	}
	return rp.treeVsIndex(ctx, idx, tree)
}

// treeVsIndex compares a tree (zero hash: empty) with the index.
func (rp *repo) treeVsIndex(ctx context.Context, idx *gitIndex, tree plumbing.Hash) (map[string]byte, error) {
	out := map[string]byte{}
	seen := make([]bool, len(idx.entries))
	if !tree.IsZero() {
		if err := rp.diffTreeIndex(ctx, idx, "", tree, seen, out, newTreeBudget()); err != nil {
			return nil, err
		}
	}
	for i, e := range idx.entries {
		if !seen[i] && e.stage == 0 && !e.intentToAdd {
			out[e.name] = 'A'
		}
	}
	return out, nil
}

func (rp *repo) diffTreeIndex(ctx context.Context, idx *gitIndex, dir string, h plumbing.Hash, seen []bool, out map[string]byte, walk *treeBudget) error {
	if ct, ok := idx.cacheTree[dir]; ok && ct == h {
		lo, hi := idx.prefixRange(dir)
		for i := lo; i < hi; i++ {
			seen[i] = true
		}
		return nil
	}
	if err := walk.next(ctx); err != nil {
		return err
	}
	es, err := rp.treeEntries(h)
	if err != nil {
		return err
	}
	if err := walk.spend(len(es)); err != nil {
		return err
	}
	for _, te := range es {
		p, err := walk.child(dir, te.Name)
		if err != nil {
			return rp.noted(err)
		}
		if te.Mode == filemode.Dir {
			if err := rp.diffTreeIndex(ctx, idx, p, te.Hash, seen, out, walk); err != nil {
				return err
			}
			continue
		}
		i, ok := idx.byName[p]
		if !ok {
			out[p] = 'D'
			continue
		}
		for j := i; j < len(idx.entries) && idx.entries[j].name == p; j++ {
			seen[j] = true
		}
		if e := idx.entries[i]; e.stage == 0 && !e.intentToAdd {
			if c := compareEntry(te.Mode, te.Hash, e.mode, e.hash); c != 0 {
				out[p] = c
			}
		}
	}
	return nil
}

// compareEntry returns 0 when equal, 'T' when the kind of object changed (file, symlink, submodule), else 'M'.
func compareEntry(m1 filemode.FileMode, h1 plumbing.Hash, m2 filemode.FileMode, h2 plumbing.Hash) byte {
	switch {
	case kind(m1) != kind(m2):
		return 'T'
	case m1 != m2 || h1 != h2:
		return 'M'
	}
	return 0
}

func kind(m filemode.FileMode) filemode.FileMode {
	if m == filemode.Executable || m == filemode.Deprecated {
		return filemode.Regular
	}
	return m
}
