package gittools

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

	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// indexFile is an index read under the repository lock, ready to be changed and written back. Entries are
// kept by name, so that staging a whole tree costs a map lookup per file.
type indexFile struct {
	idx    *index.Index // header data (version, mtime); Entries is rebuilt by save
	gitDir *os.Root

	byName map[string][]*index.Entry // every stage of a path, stage order
	dirs   map[string]int            // how many entries lie below each directory
}

// loadIndex reads the repository's index (an empty one if there is none), checked as the read tools check it
// (checkedIndex) before go-git decodes it for writing. Call close when done.
func (rp *repo) loadIndex() (*indexFile, error) {
	gd, err := rp.openDir(rp.gitDir)
	if err != nil {
		return nil, err
	}
	idx := &index.Index{Version: 2}
	f, err := openRegular(gd, "index")
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		gd.Close()
		return nil, fmt.Errorf("reading the index: %w", pathErr(err))
	default:
		err = decodeChecked(f, idx)
		f.Close()
		if err != nil {
			gd.Close()
			return nil, rp.noted(err)
		}
	}
	ix := &indexFile{idx: idx, gitDir: gd}
	ix.replaceAll(idx.Entries)
	return ix, nil
}

// decodeChecked reads the index file f into idx once checkedIndex accepts it.
func decodeChecked(f *os.File, idx *index.Index) error {
	data, fi, err := readIndexFile(f, "index")
	if err != nil {
		return err
	}
	if _, err := checkedIndex(data, "index"); err != nil {
		return err
	}
	idx.ModTime = fi.ModTime()
	if err := index.NewDecoder(bytes.NewReader(data)).Decode(idx); err != nil {
		return fmt.Errorf("reading the index: %w", err)
	}
	return nil
}

func (ix *indexFile) close() { ix.gitDir.Close() }

// replaceAll makes entries the whole index.
func (ix *indexFile) replaceAll(entries []*index.Entry) {
	ix.byName = make(map[string][]*index.Entry, len(entries))
	ix.dirs = make(map[string]int)
	for _, e := range entries {
		ix.add(e)
	}
}

// all returns every entry sorted by (name, stage), as the index stores them.
func (ix *indexFile) all() []*index.Entry {
	out := make([]*index.Entry, 0, len(ix.byName))
	for _, es := range ix.byName {
		out = append(out, es...)
	}
	slices.SortFunc(out, func(a, b *index.Entry) int {
		return cmp.Or(strings.Compare(a.Name, b.Name), cmp.Compare(a.Stage, b.Stage))
	})
	return out
}

// unmerged lists the paths with conflict stages (a merge in progress), sorted.
func (ix *indexFile) unmerged() []string {
	var out []string
	for name := range ix.byName {
		if ix.conflicted(name) {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// conflicted reports whether name has conflict stages.
func (ix *indexFile) conflicted(name string) bool {
	return slices.ContainsFunc(ix.byName[name], func(e *index.Entry) bool { return e.Stage != stageMerged })
}

// entry returns the merged (stage 0) entry for name, or nil.
func (ix *indexFile) entry(name string) *index.Entry {
	for _, e := range ix.byName[name] {
		if e.Stage == stageMerged {
			return e
		}
	}
	return nil
}

// set replaces every entry for e.Name (all stages) with e, and removes entries that would clash with it as a
// directory or a file (a/b replaces a file a; a file a replaces a/...), as git's add_index_entry does.
func (ix *indexFile) set(e *index.Entry) {
	ix.removeName(e.Name)
	for d := range parentDirs(e.Name) {
		ix.removeName(d)
	}
	if ix.dirs[e.Name] > 0 {
		ix.remove(func(n string) bool { return strings.HasPrefix(n, e.Name+"/") })
	}
	ix.add(e)
}

func (ix *indexFile) add(e *index.Entry) {
	if len(ix.byName[e.Name]) == 0 {
		for d := range parentDirs(e.Name) {
			ix.dirs[d]++
		}
	}
	ix.byName[e.Name] = append(ix.byName[e.Name], e)
}

// removeName deletes every stage of name and reports whether there was any.
func (ix *indexFile) removeName(name string) bool {
	if len(ix.byName[name]) == 0 {
		return false
	}
	delete(ix.byName, name)
	for d := range parentDirs(name) {
		if ix.dirs[d]--; ix.dirs[d] <= 0 {
			delete(ix.dirs, d)
		}
	}
	return true
}

// remove deletes every path whose name matches drop, and reports how many went.
func (ix *indexFile) remove(drop func(name string) bool) int {
	var gone []string
	for name := range ix.byName {
		if drop(name) {
			gone = append(gone, name)
		}
	}
	for _, name := range gone {
		ix.removeName(name)
	}
	return len(gone)
}

// save writes the index through index.lock and a rename. The cache-tree and other extensions are dropped
// (go-git cannot write them); git rebuilds the cache-tree when it needs it.
func (ix *indexFile) save() error {
	ix.idx.Entries = ix.all()
	ix.idx.Cache, ix.idx.ResolveUndo, ix.idx.EndOfIndexEntry = nil, nil, nil
	if ix.idx.Version < 2 {
		ix.idx.Version = 2
	}
	if ix.idx.Version == 2 && slices.ContainsFunc(ix.idx.Entries, func(e *index.Entry) bool { return e.IntentToAdd || e.SkipWorktree }) {
		ix.idx.Version = 3 // extended flags need version 3
	}
	// The encoder sorts again by name alone (not stably); on input already sorted by (name, stage) Go's
	// pdqsort moves nothing, so conflict stages keep their order.
	var buf bytes.Buffer
	if err := index.NewEncoder(&buf).Encode(ix.idx); err != nil {
		return fmt.Errorf("encoding the index: %w", err)
	}
	return writeLocked(ix.gitDir, "index", buf.Bytes())
}

// writeLocked writes data to name in dir the way git does: exclusive name.lock, then rename.
func writeLocked(dir *os.Root, name string, data []byte) error {
	lock := name + ".lock"
	f, err := dir.OpenFile(lock, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("%s exists: another git process seems to be running in this repository; if not, remove that file and retry", lock)
	}
	if err != nil {
		return fmt.Errorf("locking %s: %w", name, err)
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = dir.Rename(lock, name)
	}
	if err != nil {
		dir.Remove(lock)
		return fmt.Errorf("writing %s: %w", name, err)
	}
	return nil
}

// stageMerged is the stage of an ordinary (not conflicted) entry. go-git's index.Merged is 1, which is the
// merge base's stage in git, not this.
const stageMerged index.Stage = 0

// entryUnchanged reports whether the worktree file described by fi still has the stat data recorded in e,
// and e was written after the file last changed (not "racily clean"), so its content need not be read again.
func entryUnchanged(e *index.Entry, fi fs.FileInfo, indexTime time.Time, mode filemode.FileMode) bool {
	return e.Mode == mode && e.Size == uint32(fi.Size()) && e.ModifiedAt.Equal(fi.ModTime()) &&
		(e.Inode == 0 || uint64(e.Inode) == inode(fi)&0xffffffff) && fi.ModTime().Before(indexTime)
}
