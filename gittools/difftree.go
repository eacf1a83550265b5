package gittools

import (
	"context"
	"path"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// entry is one side of a change before its content is loaded; mode 0 = absent, wt = content in the worktree.
type entry struct {
	hash plumbing.Hash
	mode filemode.FileMode
	wt   bool
}

// change is one changed path.
type change struct {
	path     string
	oldPath  string // set for a rename: the path on the from side
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

// diffTrees lists the blob-level changes between two trees (zero hash = empty tree), limited to limit,
// skipping identical subtrees by hash. Results are in path order.
func (rp *repo) diffTrees(ctx context.Context, a, b plumbing.Hash, limit string) ([]change, error) {
	var out []change
	err := rp.diffTreesAt(ctx, "", a, b, limit, &out)
	sortChanges(out)
	return pairExactRenames(out), err
}

func (rp *repo) diffTreesAt(ctx context.Context, dir string, a, b plumbing.Hash, limit string, out *[]change) error {
	if a == b || !mayContain(dir, limit) {
		return nil
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	ea, err := rp.treeEntries(a)
	if err != nil {
		return err
	}
	eb, err := rp.treeEntries(b)
	if err != nil {
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
		v := names[n]
		if err := rp.diffEntry(ctx, path.Join(dir, n), v[0], v[1], limit, out); err != nil {
			return err
		}
	}
	return nil
}

// diffEntry compares one name of two trees; a file replaced by a directory (or back) is a delete plus adds.
func (rp *repo) diffEntry(ctx context.Context, p string, x, y *object.TreeEntry, limit string, out *[]change) error {
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
	if fa != fb && inPath(p, limit) {
		*out = append(*out, change{path: p, from: fa, to: fb})
	}
	if da != db {
		return rp.diffTreesAt(ctx, p, da, db, limit, out)
	}
	return nil
}

// treeEntries reads a tree's entries; the zero hash is the empty tree.
func (rp *repo) treeEntries(h plumbing.Hash) ([]object.TreeEntry, error) {
	if h.IsZero() {
		return nil, nil
	}
	t, err := rp.git.TreeObject(h)
	if err != nil {
		return nil, err
	}
	return t.Entries, nil
}
