// Package gitfmt owns git's on-disk formats as grove reads them: the index
// (versions 2 to 4, with its cache-tree, split into a shared index or sparse),
// ref-name rules, the path and entry names git would write, and the refusal a
// client hears when repository data breaks those rules or grove's size limits. Parsers take bytes or a file
// and never follow anything outside the git dir.
//
//	ix, err := gitfmt.ReadIndex(rp.GitRoot(), "index")
//	if gitfmt.ValidPath(name) { ... }
package gitfmt

import (
	"bytes"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"runtime/debug"
	"slices"
	"sort"
	"strings"
	"time"
	"unsafe"

	"github.com/grove-mcp/grove/gittools/internal/patchtext"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// Index is the parsed .git/index: entries in index order (byte order of names, then stage) and the valid
// cache-tree nodes ("" is the root) by directory path. [Index.Find] looks a name up.
type Index struct {
	Entries   []IndexEntry
	CacheTree map[string]plumbing.Hash
	Mtime     time.Time   // of the index file: entries with mtime >= this are racily clean
	Stat      fs.FileInfo // of the index file read (nil for an index not read from one)
	Conflicts bool
	// Sparse is set when Entries hold sparse-directory entries (a sparse index, the "sdir" extension):
	// directories outside the sparse cone, named "dir/" with mode 040000, their tree's hash and SkipWorktree.
	// repo.Index expands them into their files, so its callers never see one.
	Sparse bool
	// Tree is the TREE extension as written, every node in its pre-order, invalid ones included, for a writer
	// to keep (gitwrite); nil when there is none or part of it could not be read.
	Tree   []CacheTreeNode
	split  *splitLink      // the "link" extension of a split index, until ReadIndex merges the shared index
	dirSet map[string]bool // see dirs
}

// IndexEntry is one index entry with the stat data git compares.
type IndexEntry struct {
	Name         string
	Hash         plumbing.Hash
	Mode         filemode.FileMode
	Stage        int
	MtimeS       uint32
	MtimeNs      uint32
	CtimeS       uint32
	CtimeNs      uint32
	Ino          uint32
	Dev, UID     uint32 // kept so that a write tool writes back what it read; nothing compares them
	GID          uint32
	Size         uint32
	SkipWorktree bool
	IntentToAdd  bool
	AssumeValid  bool // git update-index --assume-unchanged: the worktree file is not looked at
}

// MaxIndexFile bounds .git/index: the index of a repository of about 800,000 files (git's own, 4,800 files,
// is 450 KB; NetBeans', 92,000 files, 15 MB). A bigger one is refused rather than read into memory.
const MaxIndexFile = 128 << 20

// ReadIndex parses the index file name in the git dir dir (an os.Root, so that a symlinked index cannot lead
// outside it), never a FIFO (OpenRegular). A missing index is an empty one.
func ReadIndex(dir *os.Root, name string) (*Index, error) { return ReadIndexHash(dir, name, sha1Len) }

// ReadIndexHash is ReadIndex for object names of hashLen bytes: 20, or 32 in a SHA-256 repository, whose names
// are kept as their first 20 bytes (the size of go-git v5's plumbing.Hash; see repo's object format).
func ReadIndexHash(dir *os.Root, name string, hashLen int) (*Index, error) {
	f, err := OpenRegular(dir, name)
	if errors.Is(err, os.ErrNotExist) {
		return &Index{CacheTree: map[string]plumbing.Hash{}}, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	shared := func(shared string) ([]byte, error) { return readShared(dir, shared) }
	if idx, fi, ok, err := parseMapped(f, name, hashLen, shared); ok {
		if err != nil {
			return nil, err
		}
		idx.Mtime, idx.Stat = fi.ModTime(), fi
		return idx, nil
	}
	data, fi, err := ReadIndexFile(f, name)
	if err != nil {
		return nil, err
	}
	idx, err := parseChecked(data, name, hashLen, shared)
	if err != nil {
		return nil, err
	}
	idx.Mtime, idx.Stat = fi.ModTime(), fi
	return idx, nil
}

// minMapIndex is the smallest index file mapped rather than read (where the system maps it, see mapIndex):
// below it the two calls of a mapping cost what the pages it spares do.
const minMapIndex = 64 << 10

// testHookMapped, when a test sets it, runs once the index is mapped, before it is parsed.
var testHookMapped func()

// parseMapped parses the open index file f through a mapping of it (mapIndex), which it unmaps before it
// returns: nothing the parse returns refers to the file's bytes (names and hashes are copied out, a split
// index's link is used up by the merge). ok is false when f was not mapped (too small, or a system without
// it): the caller reads it. A file cut short while mapped faults; the fault is the parse's error, not a crash.
func parseMapped(f *os.File, name string, hashLen int, shared func(string) ([]byte, error)) (idx *Index, fi fs.FileInfo, ok bool, err error) {
	if fi, err = f.Stat(); err != nil {
		return nil, nil, false, nil
	}
	if !fi.Mode().IsRegular() || fi.Size() > MaxIndexFile {
		return nil, nil, false, nil // ReadIndexFile refuses it with the reason
	}
	data := mapIndex(f, fi.Size())
	if data == nil {
		return nil, nil, false, nil
	}
	defer unmapIndex(data)
	if testHookMapped != nil {
		testHookMapped()
	}
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			if _, fault := r.(interface{ Addr() uintptr }); !fault {
				panic(r)
			}
			idx, ok, err = nil, true, fmt.Errorf("reading %s: the file was cut short while it was read", name)
		}
	}()
	idx, err = parseChecked(data, name, hashLen, shared)
	return idx, fi, true, err
}

// readShared reads the shared index file name in dir.
func readShared(dir *os.Root, name string) ([]byte, error) {
	f, err := OpenRegular(dir, name)
	if err != nil {
		return nil, fmt.Errorf("reading the shared index of a split index: %w", err)
	}
	defer f.Close()
	data, _, err := ReadIndexFile(f, name)
	return data, err
}

// ReadIndexFile reads the open index file f (called name), refusing anything but a regular file of at most
// MaxIndexFile bytes.
func ReadIndexFile(f *os.File, name string) ([]byte, fs.FileInfo, error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, nil, fmt.Errorf("reading %s: not a regular file", name)
	}
	if fi.Size() > MaxIndexFile {
		return nil, nil, TooBigFile(".git/"+name, fi.Size(), MaxIndexFile)
	}
	// Sized from the stat data, plus a byte to see the end, so that reading a large index is one read
	// instead of a dozen doublings of a buffer; a file that grew since is read on, up to the cap.
	data := make([]byte, fi.Size()+1)
	n, err := io.ReadFull(f, data)
	switch {
	case err == io.EOF || err == io.ErrUnexpectedEOF:
		data = data[:n]
	case err != nil:
		return nil, nil, err
	default:
		rest, err := io.ReadAll(io.LimitReader(f, MaxIndexFile+1-int64(n)))
		if err != nil {
			return nil, nil, err
		}
		data = append(data, rest...)
	}
	if len(data) > MaxIndexFile {
		return nil, nil, TooBigFile(".git/"+name, int64(len(data)), MaxIndexFile)
	}
	return data, fi, nil
}

// ParseWritableIndex parses index data (from the file name) and checks it: every loader of the index, the read
// tools' and the write tools', goes through here. Versions 2 to 4 are parsed directly (5-10x faster than
// go-git's reflection-based decoder). An entry or cache-tree node that ValidPath refuses, or names beyond
// maxIndexNames, refuse the whole index with a *refusedFile. A split index is refused here, as its entries
// are only whole with the shared index next to it (ReadIndex reads both); so is a sparse index, whose
// directory entries the write tools cannot update.
func ParseWritableIndex(data []byte, name string) (*Index, error) {
	idx, err := parseChecked(data, name, sha1Len, nil)
	if err == nil && idx.Sparse {
		return nil, &RefusedFile{File: ".git/" + name, Reason: "it is a sparse index (index.sparse); grove's write tools " +
			"need a full one: run git sparse-checkout init --no-sparse-index"}
	}
	return idx, err
}

// parseChecked is ParseWritableIndex, with shared reading the shared index of a split index (nil: refuse one).
func parseChecked(data []byte, name string, hashLen int, shared func(name string) ([]byte, error)) (*Index, error) {
	idx, err := parseIndex(data, hashLen)
	if errors.Is(err, errIndexFallback) && hashLen == sha1Len {
		idx, err = DecodeIndex(data)
	}
	if err == nil && idx.split != nil {
		err = mergeSplit(idx, hashLen, shared)
	}
	var rf *RefusedFile
	if errors.As(err, &rf) {
		rf.File = ".git/" + name
		return nil, rf
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", name, err)
	}
	return idx, idx.check(".git/" + name)
}

// check validates every name and the order of the entries (by name, then stage, as git sorts them and
// refuses them otherwise: Find and PrefixRange search them), and sets Conflicts. A directory part equal
// to the previous entry's, already validated, is not validated again: most entries share theirs with
// their neighbour.
func (idx *Index) check(file string) error {
	validDir := ""
	for i, e := range idx.Entries {
		if i > 0 {
			if p := idx.Entries[i-1]; p.Name > e.Name || p.Name == e.Name && p.Stage >= e.Stage {
				return &RefusedFile{File: file, Reason: fmt.Sprintf("its entries are out of order at %q", e.Name)}
			}
		}
		name := e.Name
		if e.SkipWorktree && e.Mode == filemode.Dir {
			name = strings.TrimSuffix(name, "/")
			idx.Sparse = true
		}
		dir, base, ok := cutLastSlash(name)
		switch {
		case ok && dir == validDir && validDir != "":
			if len(name) > MaxRepoPath || !ValidPathComponent(base) {
				return BadEntry(file, e.Name)
			}
		case !ValidPath(name):
			return BadEntry(file, e.Name)
		case ok:
			validDir = dir
		}
		if e.Stage != 0 {
			idx.Conflicts = true
		}
	}
	return nil
}

// cutLastSlash splits name at its last slash.
func cutLastSlash(name string) (dir, base string, ok bool) {
	i := strings.LastIndexByte(name, '/')
	if i < 0 {
		return "", name, false
	}
	return name[:i], name[i+1:], true
}

// ReplaceEntries makes entries (sorted by name, then stage, and valid) the index's entries.
func (idx *Index) ReplaceEntries(entries []IndexEntry) {
	idx.Entries, idx.dirSet, idx.Sparse = entries, nil, false
}

// Find returns the position of name's first entry (its lowest stage), and whether there is one: a binary
// search of the sorted entries, which costs less than the map of 50,000 names it replaces took to build.
func (idx *Index) Find(name string) (int, bool) {
	i, found := sort.Find(len(idx.Entries), func(i int) int { return strings.Compare(name, idx.Entries[i].Name) })
	return i, found
}

var errIndexFallback = errors.New("index needs the generic decoder")

const (
	IndexEntryFixed = 62 // stat data, hash and flags
	flagAssumeValid = 0x8000
	flagExtended    = 0x4000
	extSkipWorktree = 0x4000
	extIntentToAdd  = 0x2000
)

// maxIndexNames bounds the bytes of all entry names together. A version-4 index stores each name as a change
// to the previous one, so a small file could otherwise expand to gigabytes of names.
const maxIndexNames = MaxIndexFile

// sha1Len and sha256Len are the sizes of object names (and of the index's checksum) in the two object formats.
const (
	sha1Len   = 20
	sha256Len = 32
)

// ParseIndex parses index data of a SHA-1 repository (versions 2 to 4).
func ParseIndex(data []byte) (*Index, error) { return parseIndex(data, sha1Len) }

// parseIndex parses index data whose object names (and checksum) are hashLen bytes long. A longer name is
// kept as its first 20 bytes.
func parseIndex(data []byte, hashLen int) (*Index, error) {
	if len(data) < 12+hashLen || string(data[:4]) != "DIRC" {
		return nil, errors.New("not an index file")
	}
	version := binary.BigEndian.Uint32(data[4:])
	if version < 2 || version > 4 {
		return nil, errIndexFallback
	}
	n := int(binary.BigEndian.Uint32(data[8:]))
	body := data[:len(data)-hashLen]
	// Every entry takes at least 64 bytes: a count the file cannot hold is a lie, not an allocation to make.
	if n > len(body)/64 {
		return nil, fmt.Errorf("index claims %d entries in %d bytes", n, len(data))
	}
	idx := &Index{Entries: make([]IndexEntry, 0, n), CacheTree: map[string]plumbing.Hash{}}
	// The names go into one buffer, made one string at the end and sliced: a string per name was a fifth
	// of the parse, and 50,000 more objects for the garbage collector to visit.
	names := make([]byte, 0, max(len(body)-12-n*IndexEntryFixed, 0)) // what the entries leave (v4 names grow it)
	ends := make([]int, 0, n)
	off, prevStart := 12, 0
	for range n {
		prev := names[prevStart:] // the previous entry's name
		e, next, keep, suffix, err := parseEntry(body, off, version, hashLen, prev)
		if err != nil {
			return nil, err
		}
		if len(names)+keep+len(suffix) > maxIndexNames {
			return nil, &RefusedFile{Reason: fmt.Sprintf("its entry names pass %s", patchtext.SizeText(maxIndexNames))}
		}
		prevStart = len(names)
		names = append(names, prev[:keep]...)
		names = append(names, suffix...)
		ends = append(ends, len(names))
		idx.Entries = append(idx.Entries, e)
		off = next
	}
	// The names are made one string without a copy when the buffer holds little more than them: nothing
	// writes to it after this point.
	all, start := unsafe.String(unsafe.SliceData(names), len(names)), 0
	if cap(names)-len(names) > len(names)/8 {
		all = string(names) // keeping the slack alive with the entries would cost more than the copy
	}
	for i, end := range ends {
		idx.Entries[i].Name, start = all[start:end], end
	}
	return idx, parseExtensions(idx, body[off:], hashLen)
}

// parseEntry reads the entry at off, all but its name, which is the first keep bytes of prev (the previous
// entry's name, which version 4 names are relative to) followed by suffix; next is the next entry's offset.
func parseEntry(b []byte, off int, version uint32, hashLen int, prev []byte) (e IndexEntry, next, keep int, suffix []byte, err error) {
	fixed := IndexEntryFixed - sha1Len + hashLen
	if off+fixed > len(b) {
		return IndexEntry{}, 0, 0, nil, errTruncated
	}
	u32 := func(i int) uint32 { return binary.BigEndian.Uint32(b[off+i:]) }
	e = IndexEntry{
		CtimeS: u32(0), CtimeNs: u32(4), MtimeS: u32(8), MtimeNs: u32(12),
		Dev: u32(16), Ino: u32(20), Mode: filemode.FileMode(u32(24)), UID: u32(28), GID: u32(32), Size: u32(36),
	}
	copy(e.Hash[:], b[off+40:off+40+hashLen])
	flags := binary.BigEndian.Uint16(b[off+40+hashLen:])
	e.Stage = int(flags>>12) & 3
	e.AssumeValid = flags&flagAssumeValid != 0
	p := off + fixed
	if flags&flagExtended != 0 {
		if p+2 > len(b) {
			return IndexEntry{}, 0, 0, nil, errTruncated
		}
		ext := binary.BigEndian.Uint16(b[p:])
		e.SkipWorktree, e.IntentToAdd = ext&extSkipWorktree != 0, ext&extIntentToAdd != 0
		p += 2
	}
	if version == 4 {
		keep, suffix, next, err = parseNameV4(b, p, prev)
		return e, next, keep, suffix, err
	}
	end := bytes.IndexByte(b[p:], 0)
	if end < 0 {
		return IndexEntry{}, 0, 0, nil, errors.New("unterminated index entry name")
	}
	if end > MaxRepoPath {
		return IndexEntry{}, 0, 0, nil, BadEntry("", string(b[p:p+64])+"…")
	}
	entryLen := (p + end - off + 8) &^ 7 // name, then 1-8 NULs to a multiple of 8
	if off+entryLen > len(b) {
		return IndexEntry{}, 0, 0, nil, errTruncated
	}
	return e, off + entryLen, 0, b[p : p+end], nil
}

var errTruncated = errors.New("truncated index entry")

// parseNameV4 reads a version-4 name at p: how many bytes to drop from the end of prev (a number in the
// variable-width encoding of pack offsets), then the NUL-terminated bytes to append. There is no padding.
func parseNameV4(b []byte, p int, prev []byte) (keep int, suffix []byte, next int, err error) {
	strip, p, ok := offsetVarint(b, p)
	if !ok || strip > uint64(len(prev)) {
		return 0, nil, 0, errors.New("bad index entry name")
	}
	end := bytes.IndexByte(b[p:], 0)
	if end < 0 {
		return 0, nil, 0, errors.New("unterminated index entry name")
	}
	keep = len(prev) - int(strip)
	if keep+end > MaxRepoPath {
		return 0, nil, 0, BadEntry("", string(prev[:min(keep, 64)])+"…")
	}
	return keep, b[p : p+end], p + end + 1, nil
}

// offsetVarint decodes the variable-width number at b[p:] (7 bits a byte, high bit set on all but the last,
// each continuation adding one before the shift, as pack OFS_DELTA offsets are written).
func offsetVarint(b []byte, p int) (uint64, int, bool) {
	var v uint64
	for i := 0; p < len(b) && i < 9; i++ {
		c := b[p]
		p++
		v = v<<7 | uint64(c&0x7f)
		if c&0x80 == 0 {
			return v, p, true
		}
		v++
	}
	return 0, p, false
}

// parseExtensions reads the cache-tree (TREE), a split index's link and a sparse index's mark (sdir). Other
// optional extensions (an upper-case first letter: REUC, UNTR, FSMN, EOIE, IEOT) are skipped, as
// gitformat-index(5) allows; an unknown mandatory one (lower case) refuses the index.
func parseExtensions(idx *Index, b []byte, hashLen int) error {
	for len(b) >= 8 {
		sig, size := string(b[:4]), int(binary.BigEndian.Uint32(b[4:]))
		if 8+size > len(b) || size < 0 {
			return errors.New("truncated index extension")
		}
		switch body := b[8 : 8+size]; {
		case sig == "TREE":
			if err := parseCacheTree(idx, body, hashLen); err != nil {
				return err
			}
		case sig == "link":
			l, err := parseLink(body, hashLen)
			if err != nil {
				return err
			}
			idx.split = l
		case sig == "sdir":
			idx.Sparse = true
		case sig[0] < 'A' || sig[0] > 'Z':
			return &RefusedFile{Reason: fmt.Sprintf("it has the index extension %q, which grove does not know and git marks required", sig)}
		}
		b = b[8+size:]
	}
	return nil
}

// DecodeIndex is the fallback for index versions grove does not parse: go-git's decoder, converted, without the
// cache-tree.
func DecodeIndex(data []byte) (*Index, error) {
	var gi index.Index
	if err := index.NewDecoder(bytes.NewReader(data)).Decode(&gi); err != nil {
		return nil, err
	}
	idx := &Index{CacheTree: map[string]plumbing.Hash{}}
	for _, e := range gi.Entries {
		idx.Entries = append(idx.Entries, IndexEntry{
			Name: e.Name, Hash: e.Hash, Mode: e.Mode, Stage: int(e.Stage),
			MtimeS: uint32(e.ModifiedAt.Unix()), MtimeNs: uint32(e.ModifiedAt.Nanosecond()),
			CtimeS: uint32(e.CreatedAt.Unix()), CtimeNs: uint32(e.CreatedAt.Nanosecond()),
			Ino: e.Inode, Dev: e.Dev, UID: e.UID, GID: e.GID, Size: e.Size, SkipWorktree: e.SkipWorktree, IntentToAdd: e.IntentToAdd,
		})
	}
	sort.SliceStable(idx.Entries, func(i, j int) bool { return idx.Entries[i].Name < idx.Entries[j].Name })
	// go-git's decoder drops invalidated cache-tree nodes, which loses where their children belong: without
	// the shortcut, status reads the trees.
	return idx, nil
}

// PrefixRange returns the index positions [lo, hi) of entries under dir ("" = all).
func (idx *Index) PrefixRange(dir string) (int, int) {
	if dir == "" {
		return 0, len(idx.Entries)
	}
	p := dir + "/"
	lo := sort.Search(len(idx.Entries), func(i int) bool { return idx.Entries[i].Name >= p })
	hi := lo + sort.Search(len(idx.Entries)-lo, func(i int) bool {
		return !strings.HasPrefix(idx.Entries[lo+i].Name, p)
	})
	return lo, hi
}

// Dirs returns every directory that holds a tracked path, computed once per index.
func (idx *Index) Dirs() map[string]bool {
	if idx.dirSet != nil {
		return idx.dirSet
	}
	idx.dirSet = map[string]bool{}
	prev := ""
	for _, e := range idx.Entries {
		// Entries are sorted, so those of one directory mostly follow each other: skip the lookups for a
		// directory just seen (GIT-PERFORMANCE: 50,000 lookups cost 20 ms of a first status).
		if dir, _, ok := cutLastSlash(e.Name); ok && dir == prev {
			continue
		} else if ok {
			prev = dir
		}
		for d := range ParentDirs(e.Name) {
			if idx.dirSet[d] {
				break
			}
			idx.dirSet[d] = true
		}
	}
	return idx.dirSet
}

// IndexChecksumOK reports whether the index data ends with the checksum of what precedes it (SHA-1, or SHA-256
// when hashLen is 32), or with zeros, which git writes with index.skipHash.
func IndexChecksumOK(data []byte, hashLen int) bool {
	if len(data) < hashLen {
		return false
	}
	body, sum := data[:len(data)-hashLen], data[len(data)-hashLen:]
	if !slices.ContainsFunc(sum, func(b byte) bool { return b != 0 }) {
		return true
	}
	if hashLen == sha256Len {
		h := sha256.Sum256(body)
		return bytes.Equal(h[:], sum)
	}
	h := sha1.Sum(body)
	return bytes.Equal(h[:], sum)
}
