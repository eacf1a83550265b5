package repo

import (
	"bytes"
	"context"
	"fmt"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/grove-mcp/grove/gittools/internal/gitfmt"
)

// TreeEntries reads a tree's entries (parsed by gitfmt's tree parser from the raw object), refusing a tree with a name git would never write (see
// validPathComponent); the zero hash is the empty tree.
func TreeEntries(rp *Repo, h plumbing.Hash) ([]object.TreeEntry, error) {
	if h.IsZero() {
		return nil, nil
	}
	data, err := rp.RawObject(plumbing.TreeObject, h)
	if err != nil {
		return nil, rp.Noted(err)
	}
	es := make([]object.TreeEntry, 0, bytes.Count(data, []byte{0}))
	it := gitfmt.NewTreeIter(data)
	for e, ok := it.Next(); ok; e, ok = it.Next() {
		name := string(e.Name)
		if !gitfmt.ValidPathComponent(name) {
			return nil, rp.Noted(gitfmt.BadEntry("tree "+h.String()[:ShortLen], name))
		}
		es = append(es, object.TreeEntry{Name: name, Mode: e.Mode, Hash: e.Hash})
	}
	if err := it.Err(); err != nil {
		return nil, rp.Noted(fmt.Errorf("reading tree %s: %w", h.String()[:ShortLen], err))
	}
	return es, nil
}

// MaxTreeEntries bounds the tree entries (files and directories, in every tree read) one walk over a
// repository's trees examines: more than the largest real checkouts (Chromium's, about 480,000 files), and
// what stops a crafted tree whose subtrees repeat, which could otherwise list billions of paths from a few KB.
var MaxTreeEntries = 1_000_000 // a variable so tests can lower it

// TreeBudget is what one walk over trees may still examine; it also checks the request's context.
type TreeBudget struct {
	left, trees int
}

func NewTreeBudget() *TreeBudget { return &TreeBudget{left: MaxTreeEntries} }

// Next counts one tree read, checking ctx.
func (b *TreeBudget) Next(ctx context.Context) error {
	if b.trees++; b.trees%64 == 1 {
		return ctx.Err()
	}
	return nil
}

// Spend counts n entries.
func (b *TreeBudget) Spend(n int) error {
	if b.left -= n; b.left < 0 {
		return fmt.Errorf("the trees hold more than %d entries, more than grove walks in one call; "+
			"limit the call to a path", MaxTreeEntries)
	}
	return nil
}

// Child is the path of the entry name (already checked by treeEntries) in dir, refused past maxRepoPath: a
// chain of nested trees cannot build ever longer paths.
func (b *TreeBudget) Child(dir, name string) (string, error) {
	if dir == "" {
		return name, nil
	}
	if len(dir)+1+len(name) > gitfmt.MaxRepoPath {
		return "", gitfmt.BadEntry("tree", dir[:64]+"…")
	}
	return dir + "/" + name, nil
}
