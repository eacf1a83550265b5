package diff

import (
	"context"
	"errors"
	"io"

	"github.com/grove-mcp/grove/gittools/internal/scan"

	"github.com/grove-mcp/grove/gittools/internal/repo"

	"github.com/grove-mcp/grove/gittools/internal/gitfmt"

	"github.com/grove-mcp/grove/gittools/internal/patchtext"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// changesWorktree lists index → worktree changes (git diff), and the unmerged paths, under limit.
func changesWorktree(rp *repo.Repo, ctx context.Context, idx *gitfmt.Index, limit string) ([]change, []string, error) {
	wt, err := scanChanged(rp, ctx, idx, limit)
	if err != nil {
		return nil, nil, err
	}
	var out []change
	for p, c := range wt.Changed {
		if !inPath(p, limit) {
			continue
		}
		i, _ := idx.Find(p) // p came from idx
		e := idx.Entries[i]
		if e.Mode == filemode.Submodule && c != 'D' {
			continue // from the submodule's own repository, below
		}
		ch := change{path: p, from: entry{hash: e.Hash, mode: e.Mode}, to: entry{wt: true}}
		if e.IntentToAdd {
			ch.from = entry{}
		}
		if c == 'D' {
			ch.to = entry{}
		}
		out = append(out, ch)
	}
	subs, err := scan.Submodules(rp, ctx, idx, limit)
	if err != nil {
		return nil, nil, err
	}
	for p, st := range subs {
		i, _ := idx.Find(p) // p came from idx
		e := idx.Entries[i]
		if st.Head == e.Hash && !st.Dirty() {
			continue // untracked content only: git diff shows nothing
		}
		out = append(out, change{path: p, from: entry{hash: e.Hash, mode: e.Mode},
			to: entry{hash: st.Head, mode: filemode.Submodule, dirty: st.Dirty()}})
	}
	sortChanges(out)
	return out, unmergedUnder(idx, limit), nil
}

// scanChanged finds the tracked files under limit changed in the worktree. Untracked files are not part of
// git diff, so it never walks the tree: it lstats the index entries (see scanTracked).
func scanChanged(rp *repo.Repo, ctx context.Context, idx *gitfmt.Index, limit string) (*scan.Result, error) {
	return scan.Tracked(rp, ctx, idx, limit)
}

// changesStaged lists HEAD → index changes (git diff --cached) under limit.
func changesStaged(rp *repo.Repo, ctx context.Context, idx *gitfmt.Index, limit string) ([]change, []string, error) {
	head, err := rp.HeadCommit()
	if err != nil {
		return nil, nil, err
	}
	var tree plumbing.Hash
	if head != nil {
		tree = head.TreeHash
	}
	st, err := scan.TreeVsIndex(rp, ctx, idx, tree)
	if err != nil {
		return nil, nil, err
	}
	l := repo.NewTreeLookup(rp)
	var out []change
	for p := range st {
		if !inPath(p, limit) {
			continue
		}
		from, err := treeEntry(rp, l, tree, p)
		if err != nil {
			return nil, nil, err
		}
		out = append(out, change{path: p, from: from, to: indexSide(idx, p)})
	}
	sortChanges(out)
	out, err = pairRenames(rp, ctx, pairExactRenames(out))
	return out, unmergedUnder(idx, limit), err
}

// changesTreeWorktree lists tree → worktree changes (git diff <rev>) for tracked files under limit.
func changesTreeWorktree(rp *repo.Repo, ctx context.Context, idx *gitfmt.Index, tree plumbing.Hash, limit string) ([]change, error) {
	st, err := scan.TreeVsIndex(rp, ctx, idx, tree)
	if err != nil {
		return nil, err
	}
	wt, err := scanChanged(rp, ctx, idx, limit)
	if err != nil {
		return nil, err
	}
	paths := map[string]bool{}
	for p := range st {
		paths[p] = true
	}
	for p := range wt.Changed {
		paths[p] = true
	}
	l := repo.NewTreeLookup(rp)
	var out []change
	for p := range paths {
		if !inPath(p, limit) {
			continue
		}
		from, err := treeEntry(rp, l, tree, p)
		if err != nil {
			return nil, err
		}
		to := indexSide(idx, p)
		switch c := wt.Changed[p]; {
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
func treeEntry(rp *repo.Repo, l *repo.TreeLookup, tree plumbing.Hash, p string) (entry, error) {
	if tree.IsZero() {
		return entry{}, nil
	}
	hit, err := l.Find(tree, p)
	if err != nil || !hit.Found || hit.Mode == filemode.Dir {
		return entry{}, err
	}
	return entry{hash: hit.Hash, mode: hit.Mode}, nil
}

// indexSide is p's stage-0 index entry, or absent.
func indexSide(idx *gitfmt.Index, p string) entry {
	i, ok := idx.Find(p)
	if !ok || idx.Entries[i].Stage != 0 || idx.Entries[i].IntentToAdd {
		return entry{}
	}
	return entry{hash: idx.Entries[i].Hash, mode: idx.Entries[i].Mode}
}

func unmergedUnder(idx *gitfmt.Index, limit string) []string {
	var out []string
	for p := range scan.Unmerged(idx) {
		if inPath(p, limit) {
			out = append(out, p)
		}
	}
	sortStrings(out)
	return out
}

// load reads both sides of c.
func load(rp *repo.Repo, ctx context.Context, c change) (patchtext.FilePatch, error) {
	oldPath := c.path
	if c.oldPath != "" {
		oldPath = c.oldPath
	}
	from, err := loadSide(rp, ctx, oldPath, c.from)
	if err != nil {
		return patchtext.FilePatch{}, err
	}
	to, err := loadSide(rp, ctx, c.path, c.to)
	return patchtext.FilePatch{From: from, To: to, Score: c.score}, err
}

// loadSide reads one side's content, unless it is over rp.maxRead (Options.MaxReadBytes): then only its
// size is known and the patch describes it (see writeFilePatch).
func loadSide(rp *repo.Repo, ctx context.Context, p string, e entry) (patchtext.Side, error) {
	s := patchtext.Side{Path: p, Hash: e.hash, Mode: e.mode, Limit: rp.MaxRead, Dirty: e.dirty}
	switch {
	case e.wt:
		return loadWorktree(rp, ctx, p)
	case e.mode == 0 || e.mode == filemode.Submodule:
		return s, nil
	}
	var err error
	s.Data, s.Size, err = rp.ReadBlobCapped(e.hash, rp.MaxRead)
	if tl := (*patchtext.TooLarge)(nil); errors.As(err, &tl) {
		s.Big, err = true, nil
	}
	return s, err
}

// loadWorktree reads a worktree file through os.Root without following symlinks or blocking on FIFOs.
func loadWorktree(rp *repo.Repo, ctx context.Context, p string) (patchtext.Side, error) {
	loc := rp.Loc.Join(p)
	info, err := loc.Lstat()
	if err != nil {
		return patchtext.Side{Path: p}, nil // vanished since the scan: absent
	}
	s := patchtext.Side{Path: p, Mode: scan.Mode(info), Limit: rp.MaxRead}
	switch s.Mode {
	case 0:
		return patchtext.Side{Path: p}, nil
	case filemode.Symlink:
		target, err := loc.FS().Readlink(loc.Name())
		if err != nil {
			return s, err
		}
		s.Data = []byte(target)
	default:
		s.Size = info.Size()
		if info.Size() > rp.MaxRead {
			s.Big = true
			s.Hash, err = scan.HashFile(rp, ctx, p, s.Mode)
			return s, err
		}
		f, _, err := loc.OpenFile()
		if err != nil {
			return s, err
		}
		defer f.Close()
		if s.Data, err = io.ReadAll(io.LimitReader(f, rp.MaxRead+1)); err != nil {
			return s, err
		}
		if int64(len(s.Data)) > rp.MaxRead {
			return s, errors.New("file grew while reading")
		}
	}
	s.Hash = rp.HashBlob(s.Data)
	return s, nil
}
