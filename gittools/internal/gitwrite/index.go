// Package gitwrite owns the write plumbing the write tools are built from:
// the index file (load, change, save under its lock, with its own codec), trees and blobs
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

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// IndexFile is an index read under the repository lock, ready to be changed and written back. Entries are
// kept by name, so that staging a whole tree costs a map lookup per file.
type IndexFile struct {
	Idx    *index.Index // header data (version, mtime); Entries is rebuilt by save
	gitDir *os.Root

	raw []byte // the index file as loaded (nil: there was none), for Revert

	// ByName holds every stage of a path, in stage order. Change it only through the methods (Set, SetStages,
	// RemoveName, Remove, ReplaceAll): they note the names they touch, and All rereads only those.
	ByName map[string][]*index.Entry
	dirs   map[string]int // how many entries lie below each directory

	order   []string         // the names ByName held at the last All, in index order
	groups  [][]*index.Entry // ByName[order[i]] then
	touched []string         // names added or removed since, unsorted, repeats allowed

	// What the loaded file said beyond go-git's entries, for Encode to write back while it still holds.
	loaded      []gitfmt.IndexEntry    // the entries the cache-tree describes
	tree        []gitfmt.CacheTreeNode // the TREE extension
	assumeValid map[*index.Entry]bool  // entries loaded with assume-unchanged (index.Entry has no field for it)
}

// LoadIndex reads the repository's index (an empty one if there is none), checked as the read tools check it
// (gitfmt.ParseWritableIndex) and against its checksum. Call close when done.
func LoadIndex(rp *repo.Repo) (*IndexFile, error) {
	if err := rp.Writable(); err != nil {
		return nil, err
	}
	gd, err := openDir(rp, rp.GitDir)
	if err != nil {
		return nil, err
	}
	f, err := gitfmt.OpenRegular(gd, "index")
	switch {
	case errors.Is(err, fs.ErrNotExist):
		ix := &IndexFile{Idx: &index.Index{Version: 2}}
		ix.ReplaceAll(nil)
		ix.gitDir = gd
		return ix, nil
	case err != nil:
		gd.Close()
		return nil, fmt.Errorf("reading the index: %w", repo.PathErr(err))
	}
	data, fi, err := gitfmt.ReadIndexFile(f, "index")
	f.Close()
	var ix *IndexFile
	if err == nil {
		ix, err = DecodeIndex(data)
	}
	if err != nil {
		gd.Close()
		return nil, rp.Noted(err)
	}
	ix.Idx.ModTime = fi.ModTime()
	ix.gitDir = gd
	return ix, nil
}

func (ix *IndexFile) Close() { ix.gitDir.Close() }

// ReplaceAll makes entries the whole index.
func (ix *IndexFile) ReplaceAll(entries []*index.Entry) {
	entries = slices.Clone(entries)
	if !slices.IsSortedFunc(entries, compareEntries) {
		slices.SortStableFunc(entries, compareEntries)
	}
	ix.setSorted(entries)
}

// setSorted makes entries, sorted by name then stage, the whole index, with ByName's values cut from entries
// (capacity-limited, so that an append copies) and the directory counts added up a run of names at a time.
func (ix *IndexFile) setSorted(entries []*index.Entry) {
	ix.ByName = make(map[string][]*index.Entry, len(entries))
	ix.dirs = make(map[string]int)
	ix.order, ix.touched = make([]string, 0, len(entries)), nil
	ix.groups = make([][]*index.Entry, 0, len(entries))
	runDir, run := "", 0
	for i := 0; i < len(entries); {
		name := entries[i].Name
		j := i + 1
		for j < len(entries) && entries[j].Name == name {
			j++
		}
		ix.ByName[name] = entries[i:j:j]
		ix.order = append(ix.order, name)
		ix.groups = append(ix.groups, entries[i:j:j])
		i = j
		slash := strings.LastIndexByte(name, '/')
		if slash < 0 {
			continue
		}
		if dir := name[:slash]; dir == runDir {
			run++
		} else {
			ix.countDirs(runDir, run)
			runDir, run = dir, 1
		}
	}
	ix.countDirs(runDir, run)
}

// countDirs adds n to the count of dir and each of its parents.
func (ix *IndexFile) countDirs(dir string, n int) {
	if n == 0 {
		return
	}
	ix.dirs[dir] += n
	for d := range gitfmt.ParentDirs(dir) {
		ix.dirs[d] += n
	}
}

// compareEntries orders entries as the index stores them: by name (bytes), then stage.
func compareEntries(a, b *index.Entry) int {
	return cmp.Or(strings.Compare(a.Name, b.Name), cmp.Compare(a.Stage, b.Stage))
}

// All returns every entry sorted by (name, stage), as the index stores them. Only the names touched since the
// last call are looked up in ByName; the others keep their place and their entries.
func (ix *IndexFile) All() []*index.Entry {
	if len(ix.touched) > 0 {
		ix.refreshOrder()
	}
	n := 0
	for _, g := range ix.groups {
		n += len(g)
	}
	out := make([]*index.Entry, 0, n)
	for _, g := range ix.groups {
		out = append(out, g...)
	}
	return out
}

// refreshOrder merges the touched names into order and groups, with their entries as ByName now holds them
// (none: the name goes).
func (ix *IndexFile) refreshOrder() {
	slices.Sort(ix.touched)
	touched := slices.Compact(ix.touched)
	order := make([]string, 0, len(ix.order)+len(touched))
	groups := make([][]*index.Entry, 0, cap(order))
	reread := func(name string) {
		if es := ix.ByName[name]; len(es) > 0 {
			if len(es) > 1 && !slices.IsSortedFunc(es, compareEntries) {
				slices.SortStableFunc(es, compareEntries)
			}
			order, groups = append(order, name), append(groups, es)
		}
	}
	i := 0
	for _, name := range touched {
		for ; i < len(ix.order) && ix.order[i] < name; i++ {
			order, groups = append(order, ix.order[i]), append(groups, ix.groups[i])
		}
		if i < len(ix.order) && ix.order[i] == name {
			i++
		}
		reread(name)
	}
	order, groups = append(order, ix.order[i:]...), append(groups, ix.groups[i:]...)
	ix.order, ix.groups, ix.touched = order, groups, nil
}

// Unmerged lists the paths with conflict stages (a merge in progress), sorted. It walks the entries in index
// order, not ByName: no map iteration over every path, and no sort.
func (ix *IndexFile) Unmerged() []string {
	if len(ix.touched) > 0 {
		ix.refreshOrder()
	}
	var out []string
	for i, g := range ix.groups {
		if conflicted(g) {
			out = append(out, ix.order[i])
		}
	}
	return out
}

// MatchesTree reports whether the index, as loaded, is tree exactly: its cache-tree's root is valid, names
// tree and covers every entry, and no entry is unmerged or intent-to-add. A valid cache-tree root is what
// git's own "index has changes" check reads; a merge trusts it too, to skip reading and comparing HEAD's
// trees. False once the index was changed through its methods.
func (ix *IndexFile) MatchesTree(tree plumbing.Hash) bool {
	if len(ix.tree) == 0 || len(ix.touched) > 0 {
		return false
	}
	root := ix.tree[0]
	if root.Path != "" || root.Count < 0 || root.Count != len(ix.loaded) || root.Hash != tree {
		return false
	}
	for i := range ix.loaded {
		if e := &ix.loaded[i]; e.Stage != 0 || e.IntentToAdd {
			return false
		}
	}
	return true
}

// Conflicted reports whether name has conflict stages.
func (ix *IndexFile) Conflicted(name string) bool { return conflicted(ix.ByName[name]) }

// conflicted reports whether the stages of one path include a conflict stage.
func conflicted(stages []*index.Entry) bool {
	for _, e := range stages {
		if e.Stage != StageMerged {
			return true
		}
	}
	return false
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
	ix.touched = append(ix.touched, e.Name)
	ix.ByName[e.Name] = append(ix.ByName[e.Name], e)
}

// RemoveName deletes every stage of name and reports whether there was any.
func (ix *IndexFile) RemoveName(name string) bool {
	if len(ix.ByName[name]) == 0 {
		return false
	}
	delete(ix.ByName, name)
	ix.touched = append(ix.touched, name)
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

// Encode returns the bytes of the index file (see encodeIndex): the loaded version (2 and 3 as the entries'
// flags need), the loaded cache-tree with every directory whose entries changed since invalidated, the
// assume-unchanged flag on the loaded entries that had it. Other extensions are dropped, as optional ones may
// be: git rebuilds what it needs.
func (ix *IndexFile) Encode() ([]byte, error) {
	all := ix.All()
	ix.Idx.Entries = all
	ix.Idx.Cache, ix.Idx.ResolveUndo, ix.Idx.EndOfIndexEntry = nil, nil, nil
	switch {
	case ix.Idx.Version == 4:
	case slices.ContainsFunc(all, func(e *index.Entry) bool { return e.IntentToAdd || e.SkipWorktree }):
		ix.Idx.Version = 3 // extended flags need version 3
	default:
		ix.Idx.Version = 2
	}
	data, err := encodeIndex(all, ix.Idx.Version, ix.assumeValid, ix.keptTree(all))
	if err != nil {
		return nil, fmt.Errorf("encoding the index: %w", err)
	}
	return data, nil
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
