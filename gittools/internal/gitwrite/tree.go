package gitwrite

// Trees as flat path maps, and trees built from the index.

import (
	"context"
	"path"
	"sort"
	"strings"

	"github.com/grove-mcp/grove/gittools/internal/repo"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// BlobEntry is a non-tree entry of a tree: a file, symlink or submodule.
type BlobEntry struct {
	Hash plumbing.Hash
	Mode filemode.FileMode
}

// FlatTree maps every non-tree path of a commit's tree to its entry. A nil commit (unborn branch) gives an
// empty map. Entry names are checked as every tree loader checks them (treeEntries), and the walk is bounded
// by maxTreeEntries and ctx.
func FlatTree(rp *repo.Repo, ctx context.Context, c *object.Commit) (map[string]BlobEntry, error) {
	out := make(map[string]BlobEntry)
	if c == nil {
		return out, nil
	}
	return out, repo.WalkTree(rp, ctx, c.TreeHash, "", repo.NewTreeBudget(), nil, func(p string, e object.TreeEntry) {
		out[p] = BlobEntry{Hash: e.Hash, Mode: e.Mode}
	})
}

// treeDir is a directory being assembled from index entries.
type treeDir struct {
	entries []object.TreeEntry
	subdirs map[string]*treeDir
}

// WriteTree stores the trees for the merged index entries (intent-to-add entries left out, as git does) and
// returns the root tree's hash.
func WriteTree(rp *repo.Repo, entries []*index.Entry) (plumbing.Hash, error) {
	root := &treeDir{subdirs: map[string]*treeDir{}}
	for _, e := range entries {
		if e.Stage != StageMerged || e.IntentToAdd {
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
	return storeTreeOf(rp, root)
}

// storeTree writes d and its subdirectories, children first.
func storeTreeOf(rp *repo.Repo, d *treeDir) (plumbing.Hash, error) {
	for name, sub := range d.subdirs {
		h, err := storeTreeOf(rp, sub)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		d.entries = append(d.entries, object.TreeEntry{Name: name, Mode: filemode.Dir, Hash: h})
	}
	sort.Sort(object.TreeEntrySorter(d.entries))
	t := &object.Tree{Entries: d.entries}
	obj := rp.Git.Storer.NewEncodedObject()
	if err := t.Encode(obj); err != nil {
		return plumbing.ZeroHash, err
	}
	if rp.Git.Storer.HasEncodedObject(obj.Hash()) == nil {
		return obj.Hash(), nil
	}
	return rp.Git.Storer.SetEncodedObject(obj)
}
