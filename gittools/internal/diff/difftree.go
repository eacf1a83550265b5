package diff

import (
	"context"
	"strings"

	"github.com/grove-mcp/grove/gittools/internal/repo"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// entry is one side of a change before its content is loaded; mode 0 = absent, wt = content in the worktree.
type entry struct {
	hash  plumbing.Hash
	mode  filemode.FileMode
	wt    bool
	dirty bool // a gitlink's worktree side: the submodule has changes of its own
}

// change is one changed path.
type change struct {
	path     string
	oldPath  string // set for a rename: the path on the from side
	score    int    // for a rename: the similarity index in percent (100 for an exact one)
	from, to entry
}

// inPath reports whether p is limit or lies under it ("" matches everything).
func inPath(p, limit string) bool {
	return limit == "" || p == limit || strings.HasPrefix(p, limit+"/")
}

// mayContain reports whether directory dir can hold paths matching limit.
func mayContain(dir, limit string) bool {
	return limit == "" || dir == "" || inPath(dir, limit) || strings.HasPrefix(limit, dir+"/")
}

// Trees lists the blob-level changes between two trees (zero hash = empty tree), limited to limit,
// skipping identical subtrees by hash. Results are in path order.
func Trees(rp *repo.Repo, ctx context.Context, a, b plumbing.Hash, limit string) ([]change, error) {
	d := &treeDiff{rp: rp, ctx: ctx, limit: limit, walk: repo.NewTreeBudget()}
	err := d.trees("", a, b)
	sortChanges(d.out)
	if err != nil {
		return pairExactRenames(d.out), err
	}
	return pairRenames(rp, ctx, pairExactRenames(d.out))
}

// treeDiff is one diffTrees walk.
type treeDiff struct {
	rp    *repo.Repo
	ctx   context.Context
	limit string
	walk  *repo.TreeBudget
	out   []change
}

func (d *treeDiff) trees(dir string, a, b plumbing.Hash) error {
	if a == b || !mayContain(dir, d.limit) {
		return nil
	}
	if err := d.walk.Next(d.ctx); err != nil {
		return err
	}
	ea, err := repo.TreeEntries(d.rp, a)
	if err != nil {
		return err
	}
	eb, err := repo.TreeEntries(d.rp, b)
	if err != nil {
		return err
	}
	if err := d.walk.Spend(len(ea) + len(eb)); err != nil {
		return err
	}
	names := map[string][2]*object.TreeEntry{}
	var order []string
	for i := range ea {
		names[ea[i].Name] = [2]*object.TreeEntry{&ea[i], nil}
		order = append(order, ea[i].Name)
	}
	for i := range eb {
		v, ok := names[eb[i].Name]
		if !ok {
			order = append(order, eb[i].Name)
		}
		v[1] = &eb[i]
		names[eb[i].Name] = v
	}
	for _, n := range order {
		p, err := d.walk.Child(dir, n)
		if err != nil {
			return d.rp.Noted(err)
		}
		v := names[n]
		if err := d.entry(p, v[0], v[1]); err != nil {
			return err
		}
	}
	return nil
}

// entry compares one name of two trees; a file replaced by a directory (or back) is a delete plus adds.
func (d *treeDiff) entry(p string, x, y *object.TreeEntry) error {
	var fa, fb entry
	var da, db plumbing.Hash
	if x != nil {
		if x.Mode == filemode.Dir {
			da = x.Hash
		} else {
			fa = entry{hash: x.Hash, mode: x.Mode}
		}
	}
	if y != nil {
		if y.Mode == filemode.Dir {
			db = y.Hash
		} else {
			fb = entry{hash: y.Hash, mode: y.Mode}
		}
	}
	if fa != fb && inPath(p, d.limit) {
		d.out = append(d.out, change{path: p, from: fa, to: fb})
	}
	if da != db {
		return d.trees(p, da, db)
	}
	return nil
}
