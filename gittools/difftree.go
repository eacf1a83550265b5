package gittools

import (
	"context"
	"fmt"
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
	d := &treeDiff{rp: rp, ctx: ctx, limit: limit, walk: newTreeBudget()}
	err := d.trees("", a, b)
	sortChanges(d.out)
	return pairExactRenames(d.out), err
}

// treeDiff is one diffTrees walk.
type treeDiff struct {
	rp    *repo
	ctx   context.Context
	limit string
	walk  *treeBudget
	out   []change
}

func (d *treeDiff) trees(dir string, a, b plumbing.Hash) error {
	if a == b || !mayContain(dir, d.limit) {
		return nil
	}
	if err := d.walk.next(d.ctx); err != nil {
		return err
	}
	ea, err := d.rp.treeEntries(a)
	if err != nil {
		return err
	}
	eb, err := d.rp.treeEntries(b)
	if err != nil {
		return err
	}
	if err := d.walk.spend(len(ea) + len(eb)); err != nil {
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
		p, err := d.walk.child(dir, n)
		if err != nil {
			return d.rp.noted(err)
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

// treeEntries reads a tree's entries, refusing a tree with a name git would never write (see
// validPathComponent); the zero hash is the empty tree.
func (rp *repo) treeEntries(h plumbing.Hash) ([]object.TreeEntry, error) {
	if h.IsZero() {
		return nil, nil
	}
	t, err := rp.git.TreeObject(h)
	if err != nil {
		return nil, rp.noted(err)
	}
	for _, e := range t.Entries {
		if !validPathComponent(e.Name) {
			return nil, rp.noted(badEntry("tree "+h.String()[:shortLen], e.Name))
		}
	}
	return t.Entries, nil
}

// maxTreeEntries bounds the tree entries (files and directories, in every tree read) one walk over a
// repository's trees examines: more than the largest real checkouts (Chromium's, about 480,000 files), and
// what stops a crafted tree whose subtrees repeat, which could otherwise list billions of paths from a few KB.
var maxTreeEntries = 1_000_000 // a variable so tests can lower it

// treeBudget is what one walk over trees may still examine; it also checks the request's context.
type treeBudget struct {
	left, trees int
}

func newTreeBudget() *treeBudget { return &treeBudget{left: maxTreeEntries} }

// next counts one tree read, checking ctx.
func (b *treeBudget) next(ctx context.Context) error {
	if b.trees++; b.trees%64 == 1 {
		return ctx.Err()
	}
	return nil
}

// spend counts n entries.
func (b *treeBudget) spend(n int) error {
	if b.left -= n; b.left < 0 {
		return fmt.Errorf("the trees hold more than %d entries, more than grove walks in one call; "+
			"limit the call to a path", maxTreeEntries)
	}
	return nil
}

// child is the path of the entry name (already checked by treeEntries) in dir, refused past maxRepoPath: a
// chain of nested trees cannot build ever longer paths.
func (b *treeBudget) child(dir, name string) (string, error) {
	if dir == "" {
		return name, nil
	}
	if len(dir)+1+len(name) > maxRepoPath {
		return "", badEntry("tree", dir[:64]+"…")
	}
	return dir + "/" + name, nil
}
