package scan

import (
	"context"

	"github.com/grove-mcp/grove/gittools/internal/repo"

	"github.com/grove-mcp/grove/gittools/internal/gitfmt"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// Staged compares HEAD's tree with the index, the X column of `git status --short`: 'A', 'M', 'D' or 'T'.
// A subtree whose cache-tree node is valid and equals HEAD's is skipped without reading it, so a clean index
// costs one map lookup (GIT-PERFORMANCE §6.1).
func Staged(rp *repo.Repo, ctx context.Context, idx *gitfmt.Index) (map[string]byte, error) {
	head, err := rp.HeadCommit()
	if err != nil {
		return nil, err
	}
	var tree plumbing.Hash
	if head != nil {
		tree = head.TreeHash
	}
	return TreeVsIndex(rp, ctx, idx, tree)
}

// TreeVsIndex compares a tree (zero hash: empty) with the index.
func TreeVsIndex(rp *repo.Repo, ctx context.Context, idx *gitfmt.Index, tree plumbing.Hash) (map[string]byte, error) {
	out := map[string]byte{}
	seen := make([]bool, len(idx.Entries))
	if !tree.IsZero() {
		// A subtree whose cache-tree node equals HEAD's holds exactly the index entries under it: all seen.
		enter := func(dir string, h plumbing.Hash) bool {
			if ct, ok := idx.CacheTree[dir]; ok && ct == h {
				lo, hi := idx.PrefixRange(dir)
				for i := lo; i < hi; i++ {
					seen[i] = true
				}
				return false
			}
			return true
		}
		leaf := func(p string, te object.TreeEntry) {
			i, ok := idx.Find(p)
			if !ok {
				out[p] = 'D'
				return
			}
			for j := i; j < len(idx.Entries) && idx.Entries[j].Name == p; j++ {
				seen[j] = true
			}
			switch e := idx.Entries[i]; {
			case e.Stage != 0:
			case e.IntentToAdd:
				out[p] = 'D' // an intent-to-add entry stands for no content: HEAD's file is deleted, as git says
			default:
				if c := compareEntry(te.Mode, te.Hash, e.Mode, e.Hash); c != 0 {
					out[p] = c
				}
			}
		}
		if err := repo.WalkTree(rp, ctx, tree, "", repo.NewTreeBudget(), enter, leaf); err != nil {
			return nil, err
		}
	}
	for i, e := range idx.Entries {
		if !seen[i] && e.Stage == 0 && !e.IntentToAdd {
			out[e.Name] = 'A'
		}
	}
	return out, nil
}

// compareEntry returns 0 when equal, 'T' when the kind of object changed (file, symlink, submodule), else 'M'.
func compareEntry(m1 filemode.FileMode, h1 plumbing.Hash, m2 filemode.FileMode, h2 plumbing.Hash) byte {
	switch {
	case Kind(m1) != Kind(m2):
		return 'T'
	case m1 != m2 || h1 != h2:
		return 'M'
	}
	return 0
}

func Kind(m filemode.FileMode) filemode.FileMode {
	if m == filemode.Executable || m == filemode.Deprecated {
		return filemode.Regular
	}
	return m
}

// Unmerged maps each conflicted path to git's two-letter code, from the stages present.
func Unmerged(idx *gitfmt.Index) map[string][2]byte {
	if !idx.Conflicts {
		return nil
	}
	stages := map[string]int{}
	for _, e := range idx.Entries {
		if e.Stage != 0 {
			stages[e.Name] |= 1 << (e.Stage - 1)
		}
	}
	codes := map[int]string{1: "DD", 2: "AU", 3: "UD", 4: "UA", 5: "DU", 6: "AA", 7: "UU"}
	out := map[string][2]byte{}
	for p, s := range stages {
		c := codes[s]
		out[p] = [2]byte{c[0], c[1]}
	}
	return out
}
