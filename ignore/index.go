package ignore

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"slices"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// tracked is the set of paths in a git index, sorted bytewise as git sorts
// them, so a directory's entries form one contiguous run.
type tracked struct {
	paths []string
}

func (t *tracked) has(p string) bool {
	if t == nil {
		return false
	}
	_, ok := slices.BinarySearch(t.paths, p)
	return ok
}

// hasUnder reports whether some tracked path lies below directory dir.
func (t *tracked) hasUnder(dir string) bool {
	if t == nil {
		return false
	}
	prefix := dir + "/"
	i := sort.SearchStrings(t.paths, prefix)
	return i < len(t.paths) && strings.HasPrefix(t.paths[i], prefix)
}

var (
	errIndexFormat  = errors.New("unsupported index format")
	errIndexCorrupt = errors.New("corrupt index")
)

// parseIndex returns the tracked paths of index file data. It decodes
// versions 2, 3 and 4 itself (go-git's reflection-based decoder is several
// times slower) and falls back to go-git for anything it does not know. A
// split index names the shared index holding most entries; readShared reads
// it (nil if unavailable). Entries the split index deletes from the shared
// one still count as tracked until git merges the two.
func parseIndex(data []byte, hashSize int, readShared func(name string) []byte) (*tracked, error) {
	paths, shared, err := decodeIndex(data, hashSize)
	if errors.Is(err, errIndexFormat) {
		paths, err = decodeGoGit(data)
	}
	if err != nil {
		return nil, err
	}
	if shared != "" && readShared != nil {
		if data := readShared("sharedindex." + shared); data != nil {
			base, _, err := decodeIndex(data, hashSize)
			if err != nil {
				return nil, err
			}
			paths = append(paths, base...)
		}
	}
	if !slices.IsSorted(paths) {
		slices.Sort(paths)
	}
	return &tracked{paths: slices.Compact(paths)}, nil
}

func decodeGoGit(data []byte) ([]string, error) {
	var idx index.Index
	if err := index.NewDecoder(bytes.NewReader(data)).Decode(&idx); err != nil {
		return nil, err
	}
	paths := make([]string, 0, len(idx.Entries))
	for _, e := range idx.Entries {
		paths = append(paths, e.Name)
	}
	return paths, nil
}

// decodeIndex parses the entries of an index (see git's
// Documentation/gitformat-index.txt) and, for a split index, the hex name
// of its shared index. No other extension matters here.
func decodeIndex(data []byte, hashSize int) (paths []string, shared string, err error) {
	if len(data) < 12 || string(data[:4]) != "DIRC" {
		return nil, "", errIndexFormat
	}
	version := binary.BigEndian.Uint32(data[4:])
	count := int(binary.BigEndian.Uint32(data[8:]))
	if version < 2 || version > 4 {
		return nil, "", errIndexFormat
	}
	if count > len(data)/8 {
		return nil, "", errIndexCorrupt
	}
	paths = make([]string, 0, count)
	off := 12
	prev := ""
	for range count {
		name, next, ok := decodeEntry(data, off, version, hashSize, prev)
		if !ok {
			return nil, "", errIndexCorrupt
		}
		paths = append(paths, strings.TrimSuffix(name, "/")) // sparse directory entries end in "/"
		prev, off = name, next
	}
	return paths, splitLink(data[off:], hashSize), nil
}

// decodeEntry decodes the entry at off and returns its name and the offset
// of the next entry.
func decodeEntry(data []byte, off int, version uint32, hashSize int, prev string) (string, int, bool) {
	flagsAt := off + 40 + hashSize
	if flagsAt+2 > len(data) {
		return "", 0, false
	}
	flags := binary.BigEndian.Uint16(data[flagsAt:])
	nameAt := flagsAt + 2
	if flags&0x4000 != 0 && version >= 3 {
		nameAt += 2
	}
	if nameAt > len(data) {
		return "", 0, false
	}
	if version == 4 {
		return decodeV4Name(data, nameAt, prev)
	}
	n := int(flags & 0xfff)
	if n == 0xfff {
		n = bytes.IndexByte(data[nameAt:], 0)
	}
	if n < 0 || nameAt+n > len(data) {
		return "", 0, false
	}
	next := off + (nameAt-off+n+8)&^7
	return string(data[nameAt : nameAt+n]), next, next <= len(data)
}

// decodeV4Name decodes a prefix-compressed name: a varint count of bytes to
// drop from the previous name, then a NUL-terminated suffix.
func decodeV4Name(data []byte, at int, prev string) (string, int, bool) {
	strip, n := varint(data[at:])
	if n == 0 || strip > uint64(len(prev)) {
		return "", 0, false
	}
	at += n
	end := bytes.IndexByte(data[at:], 0)
	if end < 0 {
		return "", 0, false
	}
	name := prev[:len(prev)-int(strip)] + string(data[at:at+end])
	return name, at + end + 1, true
}

// varint is git's offset encoding (varint.c): 7 bits a byte, most
// significant first, adding one before each shift.
func varint(b []byte) (uint64, int) {
	if len(b) == 0 {
		return 0, 0
	}
	v := uint64(b[0] & 127)
	i := 1
	for b[i-1]&128 != 0 {
		if i >= len(b) || v >= 1<<56 {
			return 0, 0
		}
		v = (v+1)<<7 | uint64(b[i]&127)
		i++
	}
	return v, i
}

// splitLink returns the shared index's hash, in hex, if the extensions in
// ext include a split-index "link".
func splitLink(ext []byte, hashSize int) string {
	if len(ext) < hashSize {
		return ""
	}
	ext = ext[:len(ext)-hashSize] // the checksum
	for len(ext) >= 8 {
		size := int(binary.BigEndian.Uint32(ext[4:]))
		if size > len(ext)-8 {
			return ""
		}
		if string(ext[:4]) == "link" && size >= hashSize {
			h := ext[8 : 8+hashSize]
			if bytes.Count(h, []byte{0}) == hashSize {
				return "" // not split after all
			}
			return hex.EncodeToString(h)
		}
		ext = ext[8+size:]
	}
	return ""
}
