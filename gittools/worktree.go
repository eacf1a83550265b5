package gittools

import (
	"context"
	"io/fs"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// wtScan is the result of comparing the worktree with the index.
type wtScan struct {
	changed   map[string]byte // the Y column: 'M', 'D', 'T', 'A' (intent to add)
	untracked []string        // files, and directories as "dir/", in no particular order
}

// scanWorktree compares every tracked file with its index entry and, when untracked is set, lists untracked
// files through the ignore matcher's walk. With untracked, the walk (on walkWorkers+1 goroutines) also proves
// the tracked files it meets clean from their stat data, through the handle it listed their directory with;
// scanRange then checks only the rest (index-driven, parallel lstats). It only lstats: content is hashed
// (through os.Root, never blocking) only for files whose stat data differs from the index or that are racily
// clean.
func (rp *repo) scanWorktree(ctx context.Context, idx *gitIndex, untracked bool, progress func(int)) (*wtScan, error) {
	if !untracked {
		return rp.scanTracked(ctx, idx, "")
	}
	m, err := rp.ignoreMatcher()
	if err != nil {
		return nil, err
	}
	known := make([]bool, len(idx.entries))
	list, err := rp.scanUntracked(ctx, idx, m, known, progress)
	if err != nil {
		return nil, err
	}
	s, err := rp.scanRange(ctx, idx, 0, len(idx.entries), known)
	if err != nil {
		return nil, err
	}
	s.untracked = list
	return s, nil
}

// compareFile returns 0 if the worktree file rel matches index entry e, else 'M' or 'T'.
func (rp *repo) compareFile(ctx context.Context, e indexEntry, rel string, info fs.FileInfo, idx *gitIndex) byte {
	if e.intentToAdd {
		return 'A'
	}
	wm := worktreeMode(info)
	if wm == 0 || kind(wm) != kind(e.mode) {
		return 'T'
	}
	if wm != e.mode && e.mode != filemode.Deprecated {
		return 'M'
	}
	if uint32(info.Size()) != e.size {
		return 'M'
	}
	if statMatches(e, info) && !racy(e, idx) {
		return 0
	}
	h, err := rp.worktreeHash(ctx, rel, info, wm)
	if err != nil || h != e.hash {
		return 'M'
	}
	return 0
}

// worktreeMode maps a file's lstat mode to a git mode; 0 for kinds git doesn't track (FIFO, socket, device).
func worktreeMode(info fs.FileInfo) filemode.FileMode {
	switch m := info.Mode(); {
	case m&fs.ModeSymlink != 0:
		return filemode.Symlink
	case m.IsRegular() && m&0o111 != 0:
		return filemode.Executable
	case m.IsRegular():
		return filemode.Regular
	}
	return 0
}

// racy reports whether e was written in the same time slot as the index, so equal stat data proves nothing.
func racy(e indexEntry, idx *gitIndex) bool {
	s, ns := uint32(idx.mtime.Unix()), uint32(idx.mtime.Nanosecond())
	return e.mtimeS > s || e.mtimeS == s && e.mtimeNs >= ns
}

// maxHashCache bounds the remembered worktree hashes; the cache simply starts over when full.
const maxHashCache = 1 << 17

// worktreeHash hashes the worktree file rel as a blob, remembering the result for its stat data.
func (rp *repo) worktreeHash(ctx context.Context, rel string, info fs.FileInfo, m filemode.FileMode) (plumbing.Hash, error) {
	key := keyOf(info)
	if c, ok := rp.hashes[rel]; ok && c.st == key {
		return c.hash, nil
	}
	h, err := rp.hashFile(ctx, rel, m)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	if rp.hashes == nil || len(rp.hashes) >= maxHashCache {
		rp.hashes = map[string]wtHash{}
	}
	rp.hashes[rel] = wtHash{st: key, hash: h}
	return h, nil
}

// hashFile computes the blob hash of the worktree file rel (a symlink hashes its target, as git stores it).
func (rp *repo) hashFile(ctx context.Context, rel string, m filemode.FileMode) (plumbing.Hash, error) {
	loc := rp.loc.Join(rel)
	if m == filemode.Symlink {
		target, err := loc.FS().Readlink(loc.Name())
		if err != nil {
			return plumbing.ZeroHash, err
		}
		return plumbing.ComputeHash(plumbing.BlobObject, []byte(target)), nil
	}
	f, info, err := loc.OpenFile()
	if err != nil {
		return plumbing.ZeroHash, err
	}
	defer f.Close()
	return hashReader(ctx, f, info.Size())
}
