package gittools

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// gitIndex is the parsed .git/index: entries in index order (byte order of names, then stage) and the valid
// cache-tree nodes ("" is the root) by directory path.
type gitIndex struct {
	entries   []indexEntry
	byName    map[string]int // stage-0 (or first-stage) entry position by name
	cacheTree map[string]plumbing.Hash
	mtime     time.Time // of the index file: entries with mtime >= this are racily clean
	conflicts bool
	dirSet    map[string]bool // see dirs
}

// indexEntry is one index entry with the stat data git compares.
type indexEntry struct {
	name         string
	hash         plumbing.Hash
	mode         filemode.FileMode
	stage        int
	mtimeS       uint32
	mtimeNs      uint32
	ctimeS       uint32
	ctimeNs      uint32
	ino          uint32
	size         uint32
	skipWorktree bool
	intentToAdd  bool
}

// maxIndexFile bounds .git/index: the index of a repository of about 800,000 files (git's own, 4,800 files,
// is 450 KB; NetBeans', 92,000 files, 15 MB). A bigger one is refused rather than read into memory.
const maxIndexFile = 128 << 20

// readIndex parses the index file name in dir, read through an os.Root so that a symlinked index cannot
// lead outside the git dir, and never a FIFO (openRegular). A missing index is an empty one.
func readIndex(dir, name string) (*gitIndex, error) {
	f, err := openRegularIn(dir, name)
	if errors.Is(err, os.ErrNotExist) {
		return &gitIndex{byName: map[string]int{}, cacheTree: map[string]plumbing.Hash{}}, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, fi, err := readIndexFile(f, name)
	if err != nil {
		return nil, err
	}
	idx, err := checkedIndex(data, name)
	if err != nil {
		return nil, err
	}
	idx.mtime = fi.ModTime()
	return idx, nil
}

// readIndexFile reads the open index file f (called name), refusing anything but a regular file of at most
// maxIndexFile bytes.
func readIndexFile(f *os.File, name string) ([]byte, fs.FileInfo, error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, nil, fmt.Errorf("reading %s: not a regular file", name)
	}
	if fi.Size() > maxIndexFile {
		return nil, nil, tooBigFile(".git/"+name, fi.Size(), maxIndexFile)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxIndexFile+1))
	if err != nil {
		return nil, nil, err
	}
	if len(data) > maxIndexFile {
		return nil, nil, tooBigFile(".git/"+name, int64(len(data)), maxIndexFile)
	}
	return data, fi, nil
}

// checkedIndex parses index data (from the file name) and checks it: every loader of the index, the read
// tools' and the write tools', goes through here. Versions 2 to 4 are parsed directly (5-10x faster than
// go-git's reflection-based decoder); a split or sparse index goes to go-git. An entry or cache-tree node that
// validRepoPath refuses, or names beyond maxIndexNames, refuse the whole index with a *refusedFile.
func checkedIndex(data []byte, name string) (*gitIndex, error) {
	idx, err := parseIndex(data)
	if errors.Is(err, errIndexFallback) {
		idx, err = decodeIndex(data)
	}
	var rf *refusedFile
	if errors.As(err, &rf) {
		rf.file = ".git/" + name
		return nil, rf
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", name, err)
	}
	idx.byName = make(map[string]int, len(idx.entries))
	for i, e := range idx.entries {
		if !validRepoPath(e.name) {
			return nil, badEntry(".git/"+name, e.name)
		}
		if _, dup := idx.byName[e.name]; !dup {
			idx.byName[e.name] = i
		}
		if e.stage != 0 {
			idx.conflicts = true
		}
	}
	return idx, nil
}

var errIndexFallback = errors.New("index needs the generic decoder")

const (
	indexEntryFixed = 62 // stat data, hash and flags
	flagExtended    = 0x4000
	extSkipWorktree = 0x4000
	extIntentToAdd  = 0x2000
)

// maxIndexNames bounds the bytes of all entry names together. A version-4 index stores each name as a change
// to the previous one, so a small file could otherwise expand to gigabytes of names.
const maxIndexNames = maxIndexFile

func parseIndex(data []byte) (*gitIndex, error) {
	if len(data) < 12+20 || string(data[:4]) != "DIRC" {
		return nil, errors.New("not an index file")
	}
	version := binary.BigEndian.Uint32(data[4:])
	if version < 2 || version > 4 {
		return nil, errIndexFallback
	}
	n := int(binary.BigEndian.Uint32(data[8:]))
	body := data[:len(data)-20]
	// Every entry takes at least 64 bytes: a count the file cannot hold is a lie, not an allocation to make.
	if n > len(body)/64 {
		return nil, fmt.Errorf("index claims %d entries in %d bytes", n, len(data))
	}
	idx := &gitIndex{entries: make([]indexEntry, 0, n), cacheTree: map[string]plumbing.Hash{}}
	off, names, prev := 12, 0, ""
	for range n {
		e, next, err := parseEntry(body, off, version, prev)
		if err != nil {
			return nil, err
		}
		if names += len(e.name); names > maxIndexNames {
			return nil, &refusedFile{reason: fmt.Sprintf("its entry names pass %s", sizeText(maxIndexNames))}
		}
		idx.entries = append(idx.entries, e)
		off, prev = next, e.name
	}
	return idx, parseExtensions(idx, body[off:])
}

// parseEntry reads the entry at off; prev is the previous entry's name, which version 4 names are relative to.
func parseEntry(b []byte, off int, version uint32, prev string) (indexEntry, int, error) {
	if off+indexEntryFixed > len(b) {
		return indexEntry{}, 0, errors.New("truncated index entry")
	}
	u32 := func(i int) uint32 { return binary.BigEndian.Uint32(b[off+i:]) }
	e := indexEntry{
		ctimeS: u32(0), ctimeNs: u32(4), mtimeS: u32(8), mtimeNs: u32(12),
		ino: u32(20), mode: filemode.FileMode(u32(24)), size: u32(36),
	}
	copy(e.hash[:], b[off+40:off+60])
	flags := binary.BigEndian.Uint16(b[off+60:])
	e.stage = int(flags>>12) & 3
	p := off + indexEntryFixed
	if flags&flagExtended != 0 {
		if p+2 > len(b) {
			return indexEntry{}, 0, errors.New("truncated index entry")
		}
		ext := binary.BigEndian.Uint16(b[p:])
		e.skipWorktree, e.intentToAdd = ext&extSkipWorktree != 0, ext&extIntentToAdd != 0
		p += 2
	}
	if version == 4 {
		return parseNameV4(b, p, prev, e)
	}
	end := bytes.IndexByte(b[p:], 0)
	if end < 0 {
		return indexEntry{}, 0, errors.New("unterminated index entry name")
	}
	if end > maxRepoPath {
		return indexEntry{}, 0, badEntry("", string(b[p:p+64])+"…")
	}
	e.name = string(b[p : p+end])
	entryLen := (p + end - off + 8) &^ 7 // name, then 1-8 NULs to a multiple of 8
	if off+entryLen > len(b) {
		return indexEntry{}, 0, errors.New("truncated index entry")
	}
	return e, off + entryLen, nil
}

// parseNameV4 reads a version-4 name at p: how many bytes to drop from the end of prev (a number in the
// variable-width encoding of pack offsets), then the NUL-terminated bytes to append. There is no padding.
func parseNameV4(b []byte, p int, prev string, e indexEntry) (indexEntry, int, error) {
	strip, p, ok := offsetVarint(b, p)
	if !ok || strip > uint64(len(prev)) {
		return indexEntry{}, 0, errors.New("bad index entry name")
	}
	end := bytes.IndexByte(b[p:], 0)
	if end < 0 {
		return indexEntry{}, 0, errors.New("unterminated index entry name")
	}
	base := prev[:len(prev)-int(strip)]
	if len(base)+end > maxRepoPath {
		return indexEntry{}, 0, badEntry("", base[:min(len(base), 64)]+"…")
	}
	e.name = base + string(b[p:p+end])
	return e, p + end + 1, nil
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

// parseExtensions reads the cache-tree (TREE); a sparse or split index needs the generic decoder.
func parseExtensions(idx *gitIndex, b []byte) error {
	for len(b) >= 8 {
		sig, size := string(b[:4]), int(binary.BigEndian.Uint32(b[4:]))
		if 8+size > len(b) {
			return errors.New("truncated index extension")
		}
		switch sig {
		case "TREE":
			if err := parseCacheTree(idx.cacheTree, b[8:8+size]); err != nil {
				return err
			}
		case "link", "sdir":
			return errIndexFallback
		}
		b = b[8+size:]
	}
	return nil
}

// decodeIndex is the fallback for split and sparse indexes: go-git's decoder, converted, without the cache-tree.
func decodeIndex(data []byte) (*gitIndex, error) {
	var gi index.Index
	if err := index.NewDecoder(bytes.NewReader(data)).Decode(&gi); err != nil {
		return nil, err
	}
	idx := &gitIndex{cacheTree: map[string]plumbing.Hash{}}
	for _, e := range gi.Entries {
		idx.entries = append(idx.entries, indexEntry{
			name: e.Name, hash: e.Hash, mode: e.Mode, stage: int(e.Stage),
			mtimeS: uint32(e.ModifiedAt.Unix()), mtimeNs: uint32(e.ModifiedAt.Nanosecond()),
			ctimeS: uint32(e.CreatedAt.Unix()), ctimeNs: uint32(e.CreatedAt.Nanosecond()),
			ino: e.Inode, size: e.Size, skipWorktree: e.SkipWorktree, intentToAdd: e.IntentToAdd,
		})
	}
	sort.SliceStable(idx.entries, func(i, j int) bool { return idx.entries[i].name < idx.entries[j].name })
	// go-git's decoder drops invalidated cache-tree nodes, which loses where their children belong: without
	// the shortcut, status reads the trees.
	return idx, nil
}

// prefixRange returns the index positions [lo, hi) of entries under dir ("" = all).
func (idx *gitIndex) prefixRange(dir string) (int, int) {
	if dir == "" {
		return 0, len(idx.entries)
	}
	p := dir + "/"
	lo := sort.Search(len(idx.entries), func(i int) bool { return idx.entries[i].name >= p })
	hi := lo + sort.Search(len(idx.entries)-lo, func(i int) bool {
		return !strings.HasPrefix(idx.entries[lo+i].name, p)
	})
	return lo, hi
}
