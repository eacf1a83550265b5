package gittools

// MergeReplay serves bench/cmd/mergereplay and bench/cmd/pickreplay: grove's merge engine run on a repository's own commits without
// writing to it, so its results can be compared with the git program's.

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/storage/filesystem"
	"github.com/go-git/go-git/v5/storage/memory"

	"github.com/grove-mcp/grove/gittools/internal/merge"
)

// Replayer merges commits of one repository; objects it makes stay in memory.
type Replayer struct {
	st *merge.Store
}

// NewReplayer opens the repository whose git directory is gitDir, read-only.
func NewReplayer(gitDir string) (*Replayer, error) {
	fs := osfs.New(filepath.Clean(gitDir), osfs.WithBoundOS())
	disk := filesystem.NewStorageWithOptions(fs, cache.NewObjectLRUDefault(), filesystem.Options{KeepDescriptors: true})
	return &Replayer{st: &merge.Store{S: &overlay{EncodedObjectStorer: disk, mem: memory.NewStorage()}}}, nil
}

// ReplayResult is one merge's outcome: the merged tree (conflicted files with markers, as
// `git merge-tree --write-tree` writes them), the conflicted paths, sorted, and each one's kind.
type ReplayResult struct {
	Tree      string
	Conflicts []string
	Kinds     []string
	Bases     int
}

// Merge merges theirs into ours (full hashes); labels name them in conflict markers. diff3 picks that style.
func (r *Replayer) Merge(ctx context.Context, ours, theirs, oursLabel, theirsLabel string, diff3 bool) (*ReplayResult, error) {
	opts := merge.Options{Labels: merge.Labels{Ours: oursLabel, Theirs: theirsLabel}}
	if diff3 {
		opts.Style = merge.StyleDiff3
	}
	res, err := merge.Commits(ctx, r.st, plumbing.NewHash(ours), plumbing.NewHash(theirs), opts, true)
	if err != nil {
		return nil, err
	}
	return replayResult(res)
}

// Pick merges commit's change into onto as git_cherry_pick does (base commit's parent, theirs commit), or
// with revert as git_revert does (base commit, theirs its parent). commit must have exactly one parent.
func (r *Replayer) Pick(ctx context.Context, onto, commit string, revert bool) (*ReplayResult, error) {
	c, err := r.st.Commit(plumbing.NewHash(commit))
	if err != nil {
		return nil, err
	}
	if c.NumParents() != 1 {
		return nil, fmt.Errorf("commit %s has %d parents, not one", commit, c.NumParents())
	}
	p, err := r.st.Commit(c.ParentHashes[0])
	if err != nil {
		return nil, err
	}
	o, err := r.st.Commit(plumbing.NewHash(onto))
	if err != nil {
		return nil, err
	}
	opts := merge.Options{Labels: merge.Labels{Ours: "HEAD", Theirs: commit, Base: "parent of " + commit}}
	base, theirs := p.TreeHash, c.TreeHash
	if revert {
		base, theirs = theirs, base
		opts.Labels.Theirs, opts.Labels.Base = opts.Labels.Base, opts.Labels.Theirs
	}
	res, err := merge.Trees(ctx, r.st, base, o.TreeHash, theirs, opts)
	if err != nil {
		return nil, err
	}
	return replayResult(res)
}

func replayResult(res *merge.Result) (*ReplayResult, error) {
	out := &ReplayResult{Tree: res.Tree.String(), Bases: len(res.Bases)}
	for _, c := range res.Conflicts {
		out.Conflicts = append(out.Conflicts, c.Path)
		out.Kinds = append(out.Kinds, string(c.Kind))
	}
	if !slices.IsSorted(out.Conflicts) {
		return nil, fmt.Errorf("conflicts not sorted")
	}
	return out, nil
}

// Blob returns an object's content from memory or the repository.
func (r *Replayer) Blob(h string) ([]byte, error) { return r.st.Blob(plumbing.NewHash(h)) }

// overlay reads objects from a repository and keeps new ones in memory.
type overlay struct {
	storer.EncodedObjectStorer
	mem *memory.Storage
}

func (o *overlay) NewEncodedObject() plumbing.EncodedObject { return &plumbing.MemoryObject{} }

func (o *overlay) SetEncodedObject(obj plumbing.EncodedObject) (plumbing.Hash, error) {
	return o.mem.SetEncodedObject(obj)
}

func (o *overlay) HasEncodedObject(h plumbing.Hash) error {
	if o.mem.HasEncodedObject(h) == nil {
		return nil
	}
	return o.EncodedObjectStorer.HasEncodedObject(h)
}

func (o *overlay) EncodedObject(t plumbing.ObjectType, h plumbing.Hash) (plumbing.EncodedObject, error) {
	if obj, err := o.mem.EncodedObject(t, h); err == nil {
		return obj, nil
	}
	return o.EncodedObjectStorer.EncodedObject(t, h)
}

// Path returns the hash of the entry at p in tree ("" when there is none).
func (r *Replayer) Path(tree, p string) (string, error) {
	h := plumbing.NewHash(tree)
	for _, name := range splitPath(p) {
		es, err := r.st.Tree(h)
		if err != nil {
			return "", err
		}
		i := slices.IndexFunc(es, func(e object.TreeEntry) bool { return e.Name == name })
		if i < 0 {
			return "", nil
		}
		h = es[i].Hash
	}
	return h.String(), nil
}

func splitPath(p string) []string { return strings.Split(p, "/") }
