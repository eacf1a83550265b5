package diff

import (
	"sort"

	"github.com/grove-mcp/grove/gittools/internal/repo"

	"github.com/grove-mcp/grove/gittools/internal/gitfmt"

	"github.com/go-git/go-git/v5/plumbing"
)

// pairExactRenames turns a deletion and an addition of the same blob (same hash and mode) into one rename, as
// git's rename detection does at 100 % similarity. Candidates are paired in path order, so the output is
// deterministic; the rename takes the place of the addition. Partial-similarity renames are not detected.
func pairExactRenames(cs []change) []change {
	added := map[entry][]int{}
	for i, c := range cs {
		if c.from.mode == 0 && c.to.mode != 0 && !c.to.wt && !c.to.hash.IsZero() {
			added[c.to] = append(added[c.to], i)
		}
	}
	if len(added) == 0 {
		return cs
	}
	gone := map[int]bool{}
	for i, c := range cs {
		if c.to.mode != 0 || c.to.wt || c.from.mode == 0 {
			continue
		}
		if js := added[c.from]; len(js) > 0 {
			j := js[0]
			added[c.from] = js[1:]
			cs[j].oldPath, cs[j].from = c.path, c.from
			gone[i] = true
		}
	}
	out := cs[:0]
	for i, c := range cs {
		if !gone[i] {
			out = append(out, c)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].path < out[j].path })
	return out
}

// StagedRenames pairs staged deletions and additions of identical blobs, as `git status` shows them
// ("R  old -> new"); it rewrites staged in place and returns new path -> old path.
func StagedRenames(rp *repo.Repo, idx *gitfmt.Index, staged map[string]byte) (map[string]string, error) {
	var cs []change
	var tree plumbing.Hash
	for p, c := range staged {
		if c != 'D' && c != 'A' {
			continue
		}
		if tree.IsZero() {
			head, err := rp.HeadCommit()
			if err != nil || head == nil {
				return nil, err
			}
			tree = head.TreeHash
		}
		cs = append(cs, change{path: p, to: indexSide(idx, p)})
	}
	if len(cs) < 2 {
		return nil, nil
	}
	l := repo.NewTreeLookup(rp)
	for i := range cs {
		if cs[i].to.mode == 0 {
			e, err := treeEntry(rp, l, tree, cs[i].path)
			if err != nil {
				return nil, err
			}
			cs[i].from = e
		}
	}
	sortChanges(cs)
	out := map[string]string{}
	for _, c := range pairExactRenames(cs) {
		if c.oldPath != "" {
			out[c.path] = c.oldPath
			staged[c.path] = 'R'
			delete(staged, c.oldPath)
		}
	}
	return out, nil
}
