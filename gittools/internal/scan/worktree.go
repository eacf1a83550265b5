// Package scan owns comparing the worktree and the index with a tree: the
// tracked files that changed (status's Y column, stat data first, content
// hashed only when stat cannot vouch), untracked files under the ignore
// rules, the index against HEAD's tree (the X column, skipping subtrees the
// cache-tree vouches for), and conflicts.
//
//	res, err := scan.Worktree(rp, ctx, idx, true, progress) // with untracked files
//
// [Warm] keeps both columns between statuses and re-examines only the paths a file watcher reports as
// changed (warm.go: when it falls back to a full scan; warm_update.go: what a changed path re-examines).
package scan

import (
	"context"
	"io/fs"
	"time"

	"github.com/grove-mcp/grove/gittools/internal/repo"

	"github.com/grove-mcp/grove/gittools/internal/gitfmt"
	"github.com/grove-mcp/grove/internal/gcburst"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// Result is the result of comparing the worktree with the index.
type Result struct {
	Changed   map[string]byte // the Y column: 'M', 'D', 'T', 'A' (intent to add)
	Untracked []string        // files, and directories as "dir/", in no particular order
}

// Worktree compares every tracked file with its index entry and, when untracked is set, lists untracked
// files through the ignore matcher's walk. With untracked, the walk (on walkWorkers+1 goroutines) also proves
// the tracked files it meets clean from their stat data, through the handle it listed their directory with,
// unless a Preload does (WorktreeWith); scanRange then checks only the rest (index-driven, parallel
// lstats). It only lstats: content is hashed (through os.Root, never blocking) only for files whose stat
// data differs from the index or that are racily clean.
func Worktree(rp *repo.Repo, ctx context.Context, idx *gitfmt.Index, untracked bool, progress func(int)) (*Result, error) {
	if !untracked {
		return Tracked(rp, ctx, idx, "")
	}
	return WorktreeWith(rp, ctx, idx, nil, progress)
}

// WorktreeWith is Worktree with untracked files, taking the tracked files' stat data from pre (started
// on idx; nil: the walk lstats them).
func WorktreeWith(rp *repo.Repo, ctx context.Context, idx *gitfmt.Index, pre *Preload, progress func(int)) (*Result, error) {
	defer gcburst.Relax()()
	m, err := walkMatcher(rp, idx)
	if err != nil {
		return nil, err
	}
	pre = pre.of(idx)
	var known []bool
	if pre == nil {
		known = make([]bool, len(idx.Entries))
	}
	list, err := scanUntracked(rp, ctx, idx, m, known, progress)
	if err != nil {
		return nil, err
	}
	if pre != nil {
		if known, err = pre.Wait(); err != nil {
			return nil, err
		}
	}
	s, err := scanRange(rp, ctx, idx, 0, len(idx.Entries), known)
	if err != nil {
		return nil, err
	}
	s.Untracked = list
	return s, nil
}

// compareFile returns 0 if the worktree file rel matches index entry e, else 'M' or 'T'.
func compareFile(rp *repo.Repo, ctx context.Context, e gitfmt.IndexEntry, rel string, info fs.FileInfo, idx *gitfmt.Index) byte {
	if e.IntentToAdd {
		return 'A'
	}
	wm, hashAs := Mode(info), filemode.FileMode(0)
	core := rp.Core()
	if !core.Symlinks && e.Mode == filemode.Symlink && plainFile(wm) {
		wm, hashAs = filemode.Symlink, filemode.Regular // the file holds the link's target
	}
	if !core.FileMode && plainFile(wm) && plainFile(e.Mode) {
		wm = e.Mode // the executable bit is not compared
	}
	if wm == 0 || Kind(wm) != Kind(e.Mode) {
		return 'T'
	}
	if wm != e.Mode && e.Mode != filemode.Deprecated {
		return 'M'
	}
	if uint32(info.Size()) != e.Size {
		return 'M'
	}
	if repo.StatMatches(e, info) && !racy(e, idx) {
		return 0
	}
	if hashAs == 0 {
		hashAs = wm
	}
	h, err := worktreeHash(rp, ctx, rel, info, hashAs)
	if err != nil || h != e.Hash {
		return 'M'
	}
	return 0
}

// plainFile reports whether m is a regular file's mode, executable or not.
func plainFile(m filemode.FileMode) bool {
	return m == filemode.Regular || m == filemode.Executable || m == filemode.Deprecated
}

// Mode maps a file's lstat mode to a git mode; 0 for kinds git doesn't track (FIFO, socket, device).
func Mode(info fs.FileInfo) filemode.FileMode {
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
func racy(e gitfmt.IndexEntry, idx *gitfmt.Index) bool {
	s, ns := uint32(idx.Mtime.Unix()), uint32(idx.Mtime.Nanosecond())
	return e.MtimeS > s || e.MtimeS == s && e.MtimeNs >= ns
}

// maxHashCache bounds the remembered worktree hashes; the cache simply starts over when full.
const maxHashCache = 1 << 17

// recentWindow is how old a file's modification time must be for its hash to be remembered by its stat
// data: two writes of the same size within one tick of the file system's clock (a few milliseconds on
// Linux, a second or two on some file systems) leave the same stat data, so the hash of the first would
// be taken for the second (the racy-git problem, here against the time of hashing).
const recentWindow = 3 * time.Second

// worktreeHash hashes the worktree file rel as a blob, remembering the result for its stat data unless
// the file was modified within recentWindow.
func worktreeHash(rp *repo.Repo, ctx context.Context, rel string, info fs.FileInfo, m filemode.FileMode) (plumbing.Hash, error) {
	key := repo.KeyOf(info)
	if c, ok := rp.Hashes[rel]; ok && c.St == key {
		return c.Hash, nil
	}
	h, err := HashFile(rp, ctx, rel, m)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	if time.Since(info.ModTime()) < recentWindow {
		return h, nil
	}
	if rp.Hashes == nil || len(rp.Hashes) >= maxHashCache {
		rp.Hashes = map[string]repo.WtHash{}
	}
	rp.Hashes[rel] = repo.WtHash{St: key, Hash: h}
	return h, nil
}

// HashFile computes the blob hash of the worktree file rel (a symlink hashes its target, as git stores it).
func HashFile(rp *repo.Repo, ctx context.Context, rel string, m filemode.FileMode) (plumbing.Hash, error) {
	loc := rp.Loc.Join(rel)
	if m == filemode.Symlink {
		target, err := loc.FS().Readlink(loc.Name())
		if err != nil {
			return plumbing.ZeroHash, err
		}
		return rp.HashBlob([]byte(target)), nil
	}
	f, info, err := loc.OpenFile()
	if err != nil {
		return plumbing.ZeroHash, err
	}
	defer f.Close()
	return rp.HashReader(ctx, f, info.Size())
}
