package blame

import (
	"path"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/grove-mcp/grove/gittools/internal/gitfmt"

	"github.com/grove-mcp/grove/internal/linediff"
)

// renamedFrom finds the file o's commit renamed to o.path, relative to parent p, as plain `git blame` does
// when the path is new in a parent (rename detection limited to that one destination). Of the files
// the commit deleted, a copy of the same blob wins (preferring the same base name); else the regular file
// most similar to o's, if at least 50 % similar. Like git it diffs the two trees, descending only into
// subtrees that differ. "" means none.
func (b *blamer) renamedFrom(p *node, o *blameOrigin) (string, plumbing.Hash, error) {
	r := renameSearch{b: b, blob: o.blob, base: path.Base(o.path)}
	if err := r.diff("", p.tree, o.c.tree); err != nil {
		return "", plumbing.ZeroHash, err
	}
	switch {
	case r.same != "":
		return r.same, o.blob, nil
	case r.first != "":
		return r.first, o.blob, nil
	case len(r.deleted) == 0 || len(r.deleted) > maxRenameSources:
		return "", plumbing.ZeroHash, nil
	}
	if e, err := b.trees.Find(o.c.tree, o.path); err != nil || e.Mode != filemode.Regular && e.Mode != filemode.Executable {
		return "", plumbing.ZeroHash, err // git scores regular files only
	}
	return r.mostSimilar(o)
}

type renameSearch struct {
	b           *blamer
	blob        plumbing.Hash
	base        string
	first, same string        // the first deleted copy, and the first with the same base name
	deleted     []deletedFile // deleted regular files, in tree order
}

type deletedFile struct {
	path string
	hash plumbing.Hash
}

// Limits of one rename search.
const (
	minRenameSimilarity = 0.5      // git's default -M50%: a deleted file at least half the same is the source
	maxRenameSources    = 1000     // deleted files scored at most (git's default diff.renameLimit)
	maxRenameBytes      = 64 << 20 // bytes of deleted files read; files past it are not scored
)

// mostSimilar scores the deleted files against o's blob by [linediff.Similarity] and returns the most
// similar at or over minRenameSimilarity; ties go to the same base name, then to tree order. Each file is
// sized from its object header first and skipped unread when it is over the reader's limit, too much smaller or
// larger than o's to reach the threshold, or would take the bytes read past maxRenameBytes.
func (r *renameSearch) mostSimilar(o *blameOrigin) (string, plumbing.Hash, error) {
	dst, err := r.b.objects.blob(o.blob)
	if err != nil {
		return "", plumbing.ZeroHash, err
	}
	dstProfile := linediff.NewProfile(dst)
	var best deletedFile
	bestScore, bestSame, budget := 0.0, false, int64(maxRenameBytes)
	for _, d := range r.deleted {
		if err := r.b.ctx.Err(); err != nil {
			return "", plumbing.ZeroHash, err
		}
		size, err := r.b.objects.size(d.hash)
		if err != nil {
			return "", plumbing.ZeroHash, err
		}
		small, large := float64(min(size, int64(len(dst)))), float64(max(size, int64(len(dst))))
		if size > r.b.objects.limit || size > budget || large > 0 && small/large < minRenameSimilarity {
			continue
		}
		budget -= size
		src, err := r.b.objects.blob(d.hash)
		if err != nil {
			return "", plumbing.ZeroHash, err
		}
		score := linediff.Similarity(linediff.NewProfile(src), dstProfile)
		same := path.Base(d.path) == r.base
		if score >= minRenameSimilarity && (best.path == "" || score > bestScore || score == bestScore && same && !bestSame) {
			best, bestScore, bestSame = d, score, same
		}
	}
	return best.path, best.hash, nil
}

// diff compares the old tree (in the parent) with the new one at dir; a zero new hash means dir is gone.
func (r *renameSearch) diff(dir string, old, new plumbing.Hash) error {
	if r.same != "" {
		return nil
	}
	if err := r.b.ctx.Err(); err != nil {
		return err
	}
	olds, err := r.b.treeEntries(old)
	if err != nil {
		return err
	}
	var news []rawEntry
	if !new.IsZero() {
		if news, err = r.b.treeEntries(new); err != nil {
			return err
		}
	}
	byName := make(map[string]rawEntry, len(news))
	for _, n := range news {
		byName[n.name] = n
	}
	for _, e := range olds {
		n, ok := byName[e.name]
		if ok && n.hash == e.hash && n.mode == e.mode {
			continue
		}
		p := path.Join(dir, e.name)
		switch {
		case e.mode == filemode.Dir:
			sub := plumbing.ZeroHash
			if ok && n.mode == filemode.Dir {
				sub = n.hash
			}
			if err := r.diff(p, e.hash, sub); err != nil {
				return err
			}
		case e.mode.IsFile() && (!ok || n.mode == filemode.Dir):
			r.gone(p, e)
		}
	}
	return nil
}

// gone notes a file the commit deleted.
func (r *renameSearch) gone(p string, e rawEntry) {
	if e.hash != r.blob {
		if e.mode == filemode.Regular || e.mode == filemode.Executable {
			r.deleted = append(r.deleted, deletedFile{p, e.hash})
		}
		return
	}
	if r.first == "" {
		r.first = p
	}
	if r.same == "" && path.Base(p) == r.base {
		r.same = p
	}
}

// rawEntry is one entry of a tree object.
type rawEntry struct {
	name string
	mode filemode.FileMode
	hash plumbing.Hash
}

// treeEntries parses a tree object (see gitfmt.TreeIter).
func (b *blamer) treeEntries(h plumbing.Hash) ([]rawEntry, error) {
	data, err := b.objects.read(plumbing.TreeObject, h, b.objects.limit)
	if err != nil {
		return nil, err
	}
	var out []rawEntry
	it := gitfmt.NewTreeIter(data)
	for e, ok := it.Next(); ok; e, ok = it.Next() {
		out = append(out, rawEntry{name: string(e.Name), mode: e.Mode, hash: e.Hash})
	}
	return out, nil
}
