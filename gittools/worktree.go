package gittools

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"path"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/grove-mcp/grove/ignore"
)

// wtScan is the result of comparing the worktree with the index.
type wtScan struct {
	changed   map[string]byte // the Y column: 'M', 'D', 'T', 'A' (intent to add)
	untracked []string        // files, and directories as "dir/", in walk order
}

// scanWorktree compares every tracked file with its index entry (scanTracked: index-driven, parallel lstats)
// and, when untracked is set, lists untracked files through the ignore matcher's walk. It only lstats: content
// is hashed (through os.Root, never blocking) only for files whose stat data differs from the index or that are
// racily clean.
func (rp *repo) scanWorktree(ctx context.Context, idx *gitIndex, untracked bool, progress func(int)) (*wtScan, error) {
	s, err := rp.scanTracked(ctx, idx, "")
	if err != nil || !untracked {
		return s, err
	}
	m, err := rp.ignoreMatcher()
	if err != nil {
		return nil, err
	}
	dirs := idx.dirs()
	n := 0
	err = m.Walk(ctx, func(rel string, d fs.DirEntry) error {
		if n++; progress != nil && n%progressEvery == 0 {
			progress(n)
		}
		if d.IsDir() {
			return rp.scanDir(idx, m, dirs, rel, s)
		}
		if _, tracked := idx.byName[rel]; !tracked && (d.Type().IsRegular() || d.Type()&fs.ModeSymlink != 0) {
			s.untracked = append(s.untracked, rel)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return s, nil
}

// ignoreMatcher returns the repository's matcher, built once: its Walk re-reads the .gitignore files it meets
// and re-checks the index by itself; refresh invalidates it when the index changes.
func (rp *repo) ignoreMatcher() (*ignore.Matcher, error) {
	if rp.matcher == nil {
		m, err := ignore.New(rp.worktree)
		if err != nil {
			return nil, err
		}
		rp.matcher = m
	}
	return rp.matcher, nil
}

// progressEvery is how many walked entries pass between progress notifications.
const progressEvery = 5000

// scanDir decides whether the walk enters directory rel.
func (rp *repo) scanDir(idx *gitIndex, m *ignore.Matcher, dirs map[string]bool, rel string, s *wtScan) error {
	if i, ok := idx.byName[rel]; ok && idx.entries[i].mode == filemode.Submodule {
		return fs.SkipDir // submodule contents are not compared (gap: dirty submodules show clean)
	}
	if dirs[rel] {
		return nil
	}
	if rp.dirHasFiles(m, rel, 0) {
		s.untracked = append(s.untracked, rel+"/")
	}
	return fs.SkipDir
}

// maxDirProbe bounds how deep dirHasFiles looks for a non-ignored file in an untracked directory.
const maxDirProbe = 64

// dirHasFiles reports whether the untracked directory rel holds a non-ignored file (git doesn't list empty
// or wholly ignored directories), or is a nested repository.
func (rp *repo) dirHasFiles(m *ignore.Matcher, rel string, depth int) bool {
	if depth > maxDirProbe {
		return false
	}
	f, err := rp.loc.FS().Open(rp.loc.Join(rel).Name())
	if err != nil {
		return false
	}
	ents, err := f.ReadDir(-1)
	f.Close()
	if err != nil {
		return false
	}
	for _, e := range ents {
		child := rel + "/" + e.Name()
		switch t := e.Type(); {
		case e.Name() == ".git":
			return true
		case t.IsDir():
			if !m.Ignored(child, true) && rp.dirHasFiles(m, child, depth+1) {
				return true
			}
		case t.IsRegular() || t&fs.ModeSymlink != 0:
			if !m.Ignored(child, false) {
				return true
			}
		}
	}
	return false
}

// compareFile returns 0 if the worktree file rel matches index entry e, else 'M' or 'T'.
func (rp *repo) compareFile(e indexEntry, rel string, info fs.FileInfo, idx *gitIndex) byte {
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
	h, err := rp.worktreeHash(rel, info, wm)
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
func (rp *repo) worktreeHash(rel string, info fs.FileInfo, m filemode.FileMode) (plumbing.Hash, error) {
	key := keyOf(info)
	if c, ok := rp.hashes[rel]; ok && c.st == key {
		return c.hash, nil
	}
	h, err := rp.hashFile(rel, m)
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
func (rp *repo) hashFile(rel string, m filemode.FileMode) (plumbing.Hash, error) {
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
	hw := plumbing.NewHasher(plumbing.BlobObject, info.Size())
	n, err := io.Copy(hw, f)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	if n != info.Size() {
		return plumbing.ZeroHash, errors.New("file changed while hashing")
	}
	return hw.Sum(), nil
}

// dirs returns every directory that holds a tracked path, computed once per index.
func (idx *gitIndex) dirs() map[string]bool {
	if idx.dirSet != nil {
		return idx.dirSet
	}
	idx.dirSet = map[string]bool{}
	for _, e := range idx.entries {
		for d := path.Dir(e.name); d != "." && !idx.dirSet[d]; d = path.Dir(d) {
			idx.dirSet[d] = true
		}
	}
	return idx.dirSet
}
