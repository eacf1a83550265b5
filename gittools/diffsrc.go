package gittools

import (
	"context"
	"errors"
	"io"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// changesWorktree lists index → worktree changes (git diff), and the unmerged paths, under limit.
func (rp *repo) changesWorktree(ctx context.Context, idx *gitIndex, limit string) ([]change, []string, error) {
	wt, err := rp.scanChanged(ctx, idx, limit)
	if err != nil {
		return nil, nil, err
	}
	var out []change
	for p, c := range wt.changed {
		if !inPath(p, limit) {
			continue
		}
		e := idx.entries[idx.byName[p]]
		ch := change{path: p, from: entry{hash: e.hash, mode: e.mode}, to: entry{wt: true}}
		if e.intentToAdd {
			ch.from = entry{}
		}
		if c == 'D' {
			ch.to = entry{}
		}
		out = append(out, ch)
	}
	sortChanges(out)
	return out, unmergedUnder(idx, limit), nil
}

// scanChanged finds the tracked files under limit changed in the worktree. Untracked files are not part of
// git diff, so it never walks the tree: it lstats the index entries (see scanTracked).
func (rp *repo) scanChanged(ctx context.Context, idx *gitIndex, limit string) (*wtScan, error) {
	return rp.scanTracked(ctx, idx, limit)
}

// changesStaged lists HEAD → index changes (git diff --cached) under limit.
func (rp *repo) changesStaged(ctx context.Context, idx *gitIndex, limit string) ([]change, []string, error) {
	head, err := rp.headCommit()
	if err != nil {
		return nil, nil, err
	}
	var tree plumbing.Hash
	if head != nil {
		tree = head.TreeHash
	}
	st, err := rp.treeVsIndex(ctx, idx, tree)
	if err != nil {
		return nil, nil, err
	}
	l := newTreeLookup(rp)
	var out []change
	for p := range st {
		if !inPath(p, limit) {
			continue
		}
		from, err := rp.treeEntry(l, tree, p)
		if err != nil {
			return nil, nil, err
		}
		out = append(out, change{path: p, from: from, to: indexSide(idx, p)})
	}
	sortChanges(out)
	return pairExactRenames(out), unmergedUnder(idx, limit), nil
}

// changesTreeWorktree lists tree → worktree changes (git diff <rev>) for tracked files under limit.
func (rp *repo) changesTreeWorktree(ctx context.Context, idx *gitIndex, tree plumbing.Hash, limit string) ([]change, error) {
	st, err := rp.treeVsIndex(ctx, idx, tree)
	if err != nil {
		return nil, err
	}
	wt, err := rp.scanChanged(ctx, idx, limit)
	if err != nil {
		return nil, err
	}
	paths := map[string]bool{}
	for p := range st {
		paths[p] = true
	}
	for p := range wt.changed {
		paths[p] = true
	}
	l := newTreeLookup(rp)
	var out []change
	for p := range paths {
		if !inPath(p, limit) {
			continue
		}
		from, err := rp.treeEntry(l, tree, p)
		if err != nil {
			return nil, err
		}
		to := indexSide(idx, p)
		switch c := wt.changed[p]; {
		case to.mode == 0 || c == 'D':
			to = entry{}
		case c != 0:
			to = entry{wt: true}
		}
		if from != to {
			out = append(out, change{path: p, from: from, to: to})
		}
	}
	sortChanges(out)
	return out, nil
}

// treeEntry looks p up in tree (zero: empty tree); directories count as absent.
func (rp *repo) treeEntry(l *treeLookup, tree plumbing.Hash, p string) (entry, error) {
	if tree.IsZero() {
		return entry{}, nil
	}
	hit, err := l.find(tree, p)
	if err != nil || !hit.found || hit.mode == filemode.Dir {
		return entry{}, err
	}
	return entry{hash: hit.hash, mode: hit.mode}, nil
}

// indexSide is p's stage-0 index entry, or absent.
func indexSide(idx *gitIndex, p string) entry {
	i, ok := idx.byName[p]
	if !ok || idx.entries[i].stage != 0 || idx.entries[i].intentToAdd {
		return entry{}
	}
	return entry{hash: idx.entries[i].hash, mode: idx.entries[i].mode}
}

func unmergedUnder(idx *gitIndex, limit string) []string {
	var out []string
	for p := range unmerged(idx) {
		if inPath(p, limit) {
			out = append(out, p)
		}
	}
	sortStrings(out)
	return out
}

// load reads both sides of c.
func (rp *repo) load(ctx context.Context, c change) (filePatch, error) {
	oldPath := c.path
	if c.oldPath != "" {
		oldPath = c.oldPath
	}
	from, err := rp.loadSide(ctx, oldPath, c.from)
	if err != nil {
		return filePatch{}, err
	}
	to, err := rp.loadSide(ctx, c.path, c.to)
	return filePatch{from: from, to: to}, err
}

// loadSide reads one side's content, unless it is over rp.maxRead (Options.MaxReadBytes): then only its
// size is known and the patch describes it (see writeFilePatch).
func (rp *repo) loadSide(ctx context.Context, p string, e entry) (side, error) {
	s := side{path: p, hash: e.hash, mode: e.mode, limit: rp.maxRead}
	switch {
	case e.wt:
		return rp.loadWorktree(ctx, p)
	case e.mode == 0 || e.mode == filemode.Submodule:
		return s, nil
	}
	var err error
	s.data, s.size, err = rp.readBlobCapped(e.hash, rp.maxRead)
	if tl := (*tooLarge)(nil); errors.As(err, &tl) {
		s.big, err = true, nil
	}
	return s, err
}

// loadWorktree reads a worktree file through os.Root without following symlinks or blocking on FIFOs.
func (rp *repo) loadWorktree(ctx context.Context, p string) (side, error) {
	loc := rp.loc.Join(p)
	info, err := loc.Lstat()
	if err != nil {
		return side{path: p}, nil // vanished since the scan: absent
	}
	s := side{path: p, mode: worktreeMode(info), limit: rp.maxRead}
	switch s.mode {
	case 0:
		return side{path: p}, nil
	case filemode.Symlink:
		target, err := loc.FS().Readlink(loc.Name())
		if err != nil {
			return s, err
		}
		s.data = []byte(target)
	default:
		s.size = info.Size()
		if info.Size() > rp.maxRead {
			s.big = true
			s.hash, err = rp.hashFile(ctx, p, s.mode)
			return s, err
		}
		f, _, err := loc.OpenFile()
		if err != nil {
			return s, err
		}
		defer f.Close()
		if s.data, err = io.ReadAll(io.LimitReader(f, rp.maxRead+1)); err != nil {
			return s, err
		}
		if int64(len(s.data)) > rp.maxRead {
			return s, errors.New("file grew while reading")
		}
	}
	s.hash = plumbing.ComputeHash(plumbing.BlobObject, s.data)
	return s, nil
}
