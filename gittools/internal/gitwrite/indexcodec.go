package gitwrite

// grove's own codec for .git/index (gitformat-index(5)), for the write tools: DecodeIndex turns the entries
// gitfmt parsed and checked into go-git's index.Entry (the type the write tools share) in one slice, and
// encodeIndex writes them back in one buffer, with the cache-tree kept where it still holds.

import (
	"cmp"
	"crypto/sha1"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/grove-mcp/grove/gittools/internal/gitfmt"

	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// errChecksum refuses an index whose trailing checksum does not match its contents.
var errChecksum = &gitfmt.RefusedFile{File: ".git/index", Reason: "its checksum does not match its contents (a torn or corrupt file)"}

// DecodeIndex reads the bytes of an index file (of a SHA-1 repository) into an IndexFile with no git dir:
// enough to change it and Encode it, not to Save it. LoadIndex is this plus the file.
func DecodeIndex(data []byte) (*IndexFile, error) {
	if !gitfmt.IndexChecksumOK(data, sha1.Size) {
		return nil, errChecksum
	}
	parsed, err := gitfmt.ParseWritableIndex(data, "index")
	if err != nil {
		return nil, err
	}
	ix := &IndexFile{Idx: &index.Index{Version: binary.BigEndian.Uint32(data[4:])}, raw: data,
		loaded: parsed.Entries, tree: parsed.Tree}
	entries := make([]index.Entry, len(parsed.Entries))
	ptrs := make([]*index.Entry, len(parsed.Entries))
	for i := range parsed.Entries {
		pe, e := &parsed.Entries[i], &entries[i]
		*e = index.Entry{
			Hash: pe.Hash, Name: pe.Name, CreatedAt: unixTime(pe.CtimeS, pe.CtimeNs), ModifiedAt: unixTime(pe.MtimeS, pe.MtimeNs),
			Dev: pe.Dev, Inode: pe.Ino, Mode: pe.Mode, UID: pe.UID, GID: pe.GID, Size: pe.Size, Stage: index.Stage(pe.Stage),
			SkipWorktree: pe.SkipWorktree, IntentToAdd: pe.IntentToAdd,
		}
		ptrs[i] = e
		if pe.AssumeValid {
			if ix.assumeValid == nil {
				ix.assumeValid = map[*index.Entry]bool{}
			}
			ix.assumeValid[e] = true
		}
	}
	if slices.IsSortedFunc(ptrs, compareEntries) {
		ix.setSorted(ptrs)
	} else {
		ix.ReplaceAll(ptrs)
	}
	return ix, nil
}

// unixTime is the time of an index timestamp; 0:0 (never set) is the zero time, as go-git decodes it.
func unixTime(s, ns uint32) time.Time {
	if s == 0 && ns == 0 {
		return time.Time{}
	}
	return time.Unix(int64(s), int64(ns))
}

// indexTime is the index timestamp of t.
func indexTime(t time.Time) (uint32, uint32, error) {
	if t.IsZero() {
		return 0, 0, nil
	}
	if t.Unix() < 0 || t.Unix() > 1<<32-1 {
		return 0, 0, fmt.Errorf("timestamp %s does not fit the index", t)
	}
	return uint32(t.Unix()), uint32(t.Nanosecond()), nil
}

const (
	entryFixed      = gitfmt.IndexEntryFixed // stat data, object name and flags
	flagAssumeValid = 0x8000
	flagExtended    = 0x4000
	extSkipWorktree = 0x4000
	extIntentToAdd  = 0x2000
	maxFlagsNameLen = 0xfff // a longer name's length is stored as this
	maxVarintBytes  = 10
)

// encodeIndex writes entries (sorted by name, then stage) as an index file of the given version (2 or 3 as
// their flags need, or 4 with names prefix-compressed), with assumeValid's entries so flagged, the cache-tree
// nodes tree (nil: no TREE extension) and the SHA-1 checksum, in one buffer sized first.
func encodeIndex(entries []*index.Entry, version uint32, assumeValid map[*index.Entry]bool, tree []gitfmt.CacheTreeNode) ([]byte, error) {
	size := 12 + sha1.Size
	for _, e := range entries {
		size += entryFixed + 2 + len(e.Name) + maxVarintBytes
	}
	treeBody := encodeTree(tree)
	if treeBody != nil {
		size += 8 + len(treeBody)
	}
	buf := make([]byte, 0, size)
	buf = append(buf, "DIRC"...)
	buf = binary.BigEndian.AppendUint32(buf, version)
	buf = binary.BigEndian.AppendUint32(buf, uint32(len(entries)))
	prev := ""
	for _, e := range entries {
		var err error
		if buf, err = appendEntry(buf, e, version, assumeValid[e], prev); err != nil {
			return nil, err
		}
		prev = e.Name
	}
	if treeBody != nil {
		buf = append(buf, "TREE"...)
		buf = binary.BigEndian.AppendUint32(buf, uint32(len(treeBody)))
		buf = append(buf, treeBody...)
	}
	sum := sha1.Sum(buf)
	return append(buf, sum[:]...), nil
}

// appendEntry appends e's on-disk form; prev is the previous entry's name, which a version-4 name is written
// against.
func appendEntry(buf []byte, e *index.Entry, version uint32, assumeValid bool, prev string) ([]byte, error) {
	if e.Name == "" || strings.IndexByte(e.Name, 0) >= 0 || e.Stage > 3 {
		return nil, fmt.Errorf("entry %q (stage %d) cannot be written", e.Name, e.Stage)
	}
	cs, cns, err := indexTime(e.CreatedAt)
	if err != nil {
		return nil, err
	}
	ms, mns, err := indexTime(e.ModifiedAt)
	if err != nil {
		return nil, err
	}
	start := len(buf)
	for _, v := range [...]uint32{cs, cns, ms, mns, e.Dev, e.Inode, uint32(e.Mode), e.UID, e.GID, e.Size} {
		buf = binary.BigEndian.AppendUint32(buf, v)
	}
	buf = append(buf, e.Hash[:]...)
	flags := uint16(e.Stage)<<12 | uint16(min(len(e.Name), maxFlagsNameLen))
	if assumeValid {
		flags |= flagAssumeValid
	}
	var ext uint16
	if e.SkipWorktree {
		ext |= extSkipWorktree
	}
	if e.IntentToAdd {
		ext |= extIntentToAdd
	}
	if ext != 0 {
		if version < 3 {
			return nil, errors.New("extended entry flags need index version 3")
		}
		flags |= flagExtended
	}
	buf = binary.BigEndian.AppendUint16(buf, flags)
	if ext != 0 {
		buf = binary.BigEndian.AppendUint16(buf, ext)
	}
	if version == 4 {
		common := commonPrefix(prev, e.Name)
		buf = appendOffsetVarint(buf, uint64(len(prev)-common))
		buf = append(buf, e.Name[common:]...)
		return append(buf, 0), nil
	}
	buf = append(buf, e.Name...)
	pad := 8 - (len(buf)-start)%8 // 1 to 8 NULs, to a multiple of 8
	return append(buf, make([]byte, pad)...), nil
}

// commonPrefix is the length of the longest common prefix of a and b.
func commonPrefix(a, b string) int {
	n := min(len(a), len(b))
	for i := range n {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// appendOffsetVarint appends v in the variable-width encoding of pack offsets (gitformat-pack(5), OFS_DELTA):
// big-endian groups of 7 bits, the high bit set on all but the last byte, and each group but the last stored
// less one, so that every number has exactly one encoding.
func appendOffsetVarint(buf []byte, v uint64) []byte {
	var tmp [maxVarintBytes]byte
	i := len(tmp) - 1
	tmp[i] = byte(v & 0x7f)
	for v >>= 7; v != 0; v >>= 7 {
		v--
		i--
		tmp[i] = 0x80 | byte(v&0x7f)
	}
	return append(buf, tmp[i:]...)
}

// encodeTree is the TREE extension's body for nodes (pre-order), or nil when none is valid.
func encodeTree(nodes []gitfmt.CacheTreeNode) []byte {
	if !slices.ContainsFunc(nodes, func(n gitfmt.CacheTreeNode) bool { return n.Count >= 0 }) {
		return nil
	}
	var b []byte
	for _, n := range nodes {
		b = append(b, n.Path[strings.LastIndexByte(n.Path, '/')+1:]...)
		b = append(b, 0)
		b = strconv.AppendInt(b, int64(n.Count), 10)
		b = append(b, ' ')
		b = strconv.AppendInt(b, int64(n.Subtrees), 10)
		b = append(b, '\n')
		if n.Count >= 0 {
			b = append(b, n.Hash[:]...)
		}
	}
	return b
}

// keptTree is the loaded cache-tree with every directory that holds a path whose entries differ between the
// loaded index and all (added, removed, or changed in stage, mode, object, or the flags that keep an entry out
// of a tree) marked invalid, as are its parents; nil when there was none. Entries changed in place by a
// caller are caught too, since all is compared with the entries as they were parsed, not as they are now.
func (ix *IndexFile) keptTree(all []*index.Entry) []gitfmt.CacheTreeNode {
	if len(ix.tree) == 0 {
		return nil
	}
	stale := map[string]bool{}
	mark := func(name string) {
		for d := name; d != ""; {
			d = d[:max(strings.LastIndexByte(d, '/'), 0)]
			if stale[d] {
				return
			}
			stale[d] = true
		}
	}
	old := ix.loaded
	i, j := 0, 0
	for i < len(old) || j < len(all) {
		var c int
		switch {
		case j == len(all):
			c = -1
		case i == len(old):
			c = 1
		default:
			c = cmp.Or(strings.Compare(old[i].Name, all[j].Name), cmp.Compare(old[i].Stage, int(all[j].Stage)))
		}
		switch {
		case c < 0:
			mark(old[i].Name)
			i++
		case c > 0:
			mark(all[j].Name)
			j++
		default:
			if o, n := &old[i], all[j]; o.Mode != n.Mode || o.Hash != n.Hash || o.IntentToAdd != n.IntentToAdd || o.SkipWorktree != n.SkipWorktree {
				mark(n.Name)
			}
			i++
			j++
		}
	}
	if len(stale) == 0 {
		return ix.tree
	}
	out := slices.Clone(ix.tree)
	for k := range out {
		if stale[out[k].Path] {
			out[k].Count, out[k].Hash = -1, [20]byte{}
		}
	}
	return out
}
