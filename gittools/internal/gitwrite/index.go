// Package gitwrite owns the write plumbing the write tools are built from:
// the index file (load, change, save under its lock), trees and blobs
// written to the object store (with gitattributes conversions), refs and
// their reflog, the committer identity, and where in the worktree a write may
// go (no path through a symlink, nothing under .git).
//
//	ix, err := gitwrite.LoadIndex(rp)
//	tree, err := gitwrite.WriteTree(rp, ix.All())
package gitwrite

// Reading and writing .git/index for the write tools. The index is written the way git writes it: into
// index.lock (created exclusively, so a running git command and grove never both write it), then renamed over
// index. go-git's own SetIndex truncates the index in place, which a concurrent git could read half-written.

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/grove-mcp/grove/gittools/internal/repo"

	"github.com/grove-mcp/grove/gittools/internal/gitfmt"

	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// IndexFile is an index read under the repository lock, ready to be changed and written back. Entries are
// kept by name, so that staging a whole tree costs a map lookup per file.
type IndexFile struct {
	Idx    *index.Index // header data (version, mtime); Entries is rebuilt by save
	gitDir *os.Root

	raw []byte // the index file as loaded (nil: there was none), for Revert

	ByName map[string][]*index.Entry // every stage of a path, stage order
	dirs   map[string]int            // how many entries lie below each directory
}

// LoadIndex reads the repository's index (an empty one if there is none), checked as the read tools check it
// (parseChecked) before go-git decodes it for writing. Call close when done.
func LoadIndex(rp *repo.Repo) (*IndexFile, error) {
	if err := rp.Writable(); err != nil {
		return nil, err
	}
	gd, err := openDir(rp, rp.GitDir)
	if err != nil {
		return nil, err
	}
	idx := &index.Index{Version: 2}
	var raw []byte
	f, err := gitfmt.OpenRegular(gd, "index")
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		gd.Close()
		return nil, fmt.Errorf("reading the index: %w", repo.PathErr(err))
	default:
		raw, err = decodeChecked(f, idx)
		f.Close()
		if err != nil {
			gd.Close()
			return nil, rp.Noted(err)
		}
	}
	ix := &IndexFile{Idx: idx, gitDir: gd, raw: raw}
	ix.ReplaceAll(idx.Entries)
	return ix, nil
}

// decodeChecked reads the index file f into idx once parseChecked accepts it, and returns its bytes.
func decodeChecked(f *os.File, idx *index.Index) ([]byte, error) {
	data, fi, err := gitfmt.ReadIndexFile(f, "index")
	if err != nil {
		return nil, err
	}
	if _, err := gitfmt.ParseWritableIndex(data, "index"); err != nil {
		return nil, err
	}
	idx.ModTime = fi.ModTime()
	if err := index.NewDecoder(bytes.NewReader(data)).Decode(idx); err != nil {
		return nil, fmt.Errorf("reading the index: %w", err)
	}
	return data, nil
}

func (ix *IndexFile) Close() { ix.gitDir.Close() }

// ReplaceAll makes entries the whole index.
func (ix *IndexFile) ReplaceAll(entries []*index.Entry) {
	ix.ByName = make(map[string][]*index.Entry, len(entries))
	ix.dirs = make(map[string]int)
	for _, e := range entries {
		ix.add(e)
	}
}

// All returns every entry sorted by (name, stage), as the index stores them.
func (ix *IndexFile) All() []*index.Entry {
	out := make([]*index.Entry, 0, len(ix.ByName))
	for _, es := range ix.ByName {
		out = append(out, es...)
	}
	slices.SortFunc(out, func(a, b *index.Entry) int {
		return cmp.Or(strings.Compare(a.Name, b.Name), cmp.Compare(a.Stage, b.Stage))
	})
	return out
}

// Unmerged lists the paths with conflict stages (a merge in progress), sorted.
func (ix *IndexFile) Unmerged() []string {
	var out []string
	for name := range ix.ByName {
		if ix.Conflicted(name) {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// Conflicted reports whether name has conflict stages.
func (ix *IndexFile) Conflicted(name string) bool {
	return slices.ContainsFunc(ix.ByName[name], func(e *index.Entry) bool { return e.Stage != StageMerged })
}

// Entry returns the merged (stage 0) entry for name, or nil.
func (ix *IndexFile) Entry(name string) *index.Entry {
	for _, e := range ix.ByName[name] {
		if e.Stage == StageMerged {
			return e
		}
	}
	return nil
}

// Set replaces every entry for e.Name (all stages) with e, and removes entries that would clash with it as a
// directory or a file (a/b replaces a file a; a file a replaces a/...), as git's add_index_entry does.
func (ix *IndexFile) Set(e *index.Entry) {
	ix.RemoveName(e.Name)
	for d := range gitfmt.ParentDirs(e.Name) {
		ix.RemoveName(d)
	}
	if ix.dirs[e.Name] > 0 {
		ix.Remove(func(n string) bool { return strings.HasPrefix(n, e.Name+"/") })
	}
	ix.add(e)
}

func (ix *IndexFile) add(e *index.Entry) {
	if len(ix.ByName[e.Name]) == 0 {
		for d := range gitfmt.ParentDirs(e.Name) {
			ix.dirs[d]++
		}
	}
	ix.ByName[e.Name] = append(ix.ByName[e.Name], e)
}

// RemoveName deletes every stage of name and reports whether there was any.
func (ix *IndexFile) RemoveName(name string) bool {
	if len(ix.ByName[name]) == 0 {
		return false
	}
	delete(ix.ByName, name)
	for d := range gitfmt.ParentDirs(name) {
		if ix.dirs[d]--; ix.dirs[d] <= 0 {
			delete(ix.dirs, d)
		}
	}
	return true
}

// Remove deletes every path whose name matches drop, and reports how many went.
func (ix *IndexFile) Remove(drop func(name string) bool) int {
	var gone []string
	for name := range ix.ByName {
		if drop(name) {
			gone = append(gone, name)
		}
	}
	for _, name := range gone {
		ix.RemoveName(name)
	}
	return len(gone)
}

// Save writes the index through index.lock and a rename.
func (ix *IndexFile) Save() error {
	data, err := ix.Encode()
	if err != nil {
		return err
	}
	return writeLocked(ix.gitDir, "index", data)
}

// Encode returns the bytes of the index file. The cache-tree and other extensions are dropped (go-git cannot
// write them); git rebuilds the cache-tree when it needs it.
func (ix *IndexFile) Encode() ([]byte, error) {
	ix.Idx.Entries = ix.All()
	ix.Idx.Cache, ix.Idx.ResolveUndo, ix.Idx.EndOfIndexEntry = nil, nil, nil
	if ix.Idx.Version < 2 {
		ix.Idx.Version = 2
	}
	if ix.Idx.Version == 2 && slices.ContainsFunc(ix.Idx.Entries, func(e *index.Entry) bool { return e.IntentToAdd || e.SkipWorktree }) {
		ix.Idx.Version = 3 // extended flags need version 3
	}
	// The encoder sorts again by name alone (not stably); on input already sorted by (name, stage) Go's
	// pdqsort moves nothing, so conflict stages keep their order.
	var buf bytes.Buffer
	if err := index.NewEncoder(&buf).Encode(ix.Idx); err != nil {
		return nil, fmt.Errorf("encoding the index: %w", err)
	}
	return buf.Bytes(), nil
}

// Lock takes index.lock, to be filled with Encode's bytes and committed once the operation is done.
func (ix *IndexFile) Lock() (*LockedFile, error) { return lockFile(ix.gitDir, "index", false) }

// Revert writes the index back as LoadIndex read it (removes it if there was none): the way back for an
// operation whose later steps failed after its index was saved.
func (ix *IndexFile) Revert() error {
	if ix.raw == nil {
		if err := ix.gitDir.Remove("index"); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("removing the index: %w", err)
		}
		return nil
	}
	return writeLocked(ix.gitDir, "index", ix.raw)
}

// StageMerged is the stage of an ordinary (not conflicted) entry. go-git's index.Merged is 1, which is the
// merge base's stage in git, not this.
const StageMerged index.Stage = 0

// EntryUnchanged reports whether the worktree file described by fi still has the stat data recorded in e,
// and e was written after the file last changed (not "racily clean"), so its content need not be read again.
func EntryUnchanged(e *index.Entry, fi fs.FileInfo, indexTime time.Time, mode filemode.FileMode) bool {
	return e.Mode == mode && e.Size == uint32(fi.Size()) && e.ModifiedAt.Equal(fi.ModTime()) &&
		(e.Inode == 0 || uint64(e.Inode) == repo.Inode(fi)&0xffffffff) && fi.ModTime().Before(indexTime)
}
