package gittools

// Trees as flat path maps, and trees built from the index.

import (
	"context"
	"path"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// blobEntry is a non-tree entry of a tree: a file, symlink or submodule.
type blobEntry struct {
	Hash plumbing.Hash
	Mode filemode.FileMode
}

// flatTree maps every non-tree path of a commit's tree to its entry. A nil commit (unborn branch) gives an
// empty map. Entry names are checked as every tree loader checks them (treeEntries), and the walk is bounded
// by maxTreeEntries and ctx.
func (rp *repo) flatTree(ctx context.Context, c *object.Commit) (map[string]blobEntry, error) {
	out := make(map[string]blobEntry)
	if c == nil {
		return out, nil
	}
	return out, rp.flatten(ctx, c.TreeHash, "", out, newTreeBudget())
}

func (rp *repo) flatten(ctx context.Context, h plumbing.Hash, dir string, out map[string]blobEntry, walk *treeBudget) error {
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
	for _, e := range es {
		p, err := walk.child(dir, e.Name)
		if err != nil {
			return rp.noted(err)
		}
		if e.Mode == filemode.Dir {
			if err := rp.flatten(ctx, e.Hash, p, out, walk); err != nil {
				return err
			}
			continue
		}
		out[p] = blobEntry{Hash: e.Hash, Mode: e.Mode}
	}
	return nil
}

// treeDir is a directory being assembled from index entries.
type treeDir struct {
	entries []object.TreeEntry
	subdirs map[string]*treeDir
}

// writeTree stores the trees for the merged index entries (intent-to-add entries left out, as git does) and
// returns the root tree's hash.
func (rp *repo) writeTree(entries []*index.Entry) (plumbing.Hash, error) {
	root := &treeDir{subdirs: map[string]*treeDir{}}
	for _, e := range entries {
		if e.Stage != stageMerged || e.IntentToAdd {
			continue
		}
		d := root
		dir, base := path.Split(e.Name)
		if dir != "" {
			for _, c := range strings.Split(strings.TrimSuffix(dir, "/"), "/") {
				sub, ok := d.subdirs[c]
				if !ok {
					sub = &treeDir{subdirs: map[string]*treeDir{}}
					d.subdirs[c] = sub
				}
				d = sub
			}
		}
		d.entries = append(d.entries, object.TreeEntry{Name: base, Mode: e.Mode, Hash: e.Hash})
	}
	return rp.storeTree(root)
}

// storeTree writes d and its subdirectories, children first.
func (rp *repo) storeTree(d *treeDir) (plumbing.Hash, error) {
	for name, sub := range d.subdirs {
		h, err := rp.storeTree(sub)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		d.entries = append(d.entries, object.TreeEntry{Name: name, Mode: filemode.Dir, Hash: h})
	}
	sort.Sort(object.TreeEntrySorter(d.entries))
	t := &object.Tree{Entries: d.entries}
	obj := rp.git.Storer.NewEncodedObject()
	if err := t.Encode(obj); err != nil {
		return plumbing.ZeroHash, err
	}
	if rp.git.Storer.HasEncodedObject(obj.Hash()) == nil {
		return obj.Hash(), nil
	}
	return rp.git.Storer.SetEncodedObject(obj)
}
