package gitfmt

// A split index (core.splitIndex, gitformat-index(5) "Split index") keeps most entries in a shared index file,
// $GIT_DIR/sharedindex.<hash>, and writes to .git/index only what changed since: entries that replace shared
// ones and entries added, plus the "link" extension naming the shared file and two bitmaps over its entries,
// which to delete and which to replace. Both bitmaps are EWAH-compressed (the bitmap format of
// gitformat-pack(5)).

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"sort"
)

// splitLink is the "link" extension: the shared index's hash and the shared entries to delete and replace,
// as ascending positions.
type splitLink struct {
	shared           []byte // the shared index's whole name (hashLen bytes)
	delete, replaced []int
}

// parseLink reads the link extension's body.
func parseLink(b []byte, hashLen int) (*splitLink, error) {
	if len(b) < hashLen {
		return nil, errors.New("truncated split index link")
	}
	l := &splitLink{shared: b[:hashLen]}
	b = b[hashLen:]
	if len(b) == 0 { // written before any entry was split off: no bitmaps
		return l, nil
	}
	var err error
	if l.delete, b, err = ewahBits(b); err != nil {
		return nil, err
	}
	if l.replaced, _, err = ewahBits(b); err != nil {
		return nil, err
	}
	return l, nil
}

// maxEWAHBits bounds a bitmap's declared size: one bit per shared entry, and no index holds more entries
// than it has 64-byte blocks.
const maxEWAHBits = MaxIndexFile / 64

// ewahBits decodes the EWAH bitmap at the start of b into the positions of its set bits and returns the rest
// of b. The bitmap is its size in bits, its word count, the 64-bit words, and the position of its last
// run-length word; the words alternate a run-length word (bit 0: the running bit; bits 1-32: how many words
// of that bit follow; bits 33-63: how many literal words follow it) and literal words, least significant bit
// first.
func ewahBits(b []byte) ([]int, []byte, error) {
	bad := errors.New("bad split index bitmap")
	if len(b) < 12 {
		return nil, nil, bad
	}
	size, words := int(binary.BigEndian.Uint32(b)), int(binary.BigEndian.Uint32(b[4:]))
	if size > maxEWAHBits || words > (len(b)-12)/8 {
		return nil, nil, bad
	}
	w := b[8 : 8+8*words]
	rest := b[8+8*words+4:]
	var set []int
	pos := 0
	for i := 0; i < words; {
		rlw := binary.BigEndian.Uint64(w[8*i:])
		i++
		run, lits := int(rlw>>1&0xffffffff), int(rlw>>33)
		if run > size/64+1 || lits > words-i {
			return nil, nil, bad
		}
		if rlw&1 != 0 {
			for k := pos; k < pos+64*run && k < size; k++ {
				set = append(set, k)
			}
		}
		pos += 64 * run
		for range lits {
			lit := binary.BigEndian.Uint64(w[8*i:])
			i++
			for bit := 0; lit != 0; bit, lit = bit+1, lit>>1 {
				if lit&1 != 0 && pos+bit < size {
					set = append(set, pos+bit)
				}
			}
			pos += 64
		}
		if pos > size+64 {
			return nil, nil, bad
		}
	}
	return set, rest, nil
}

// mergeSplit makes idx, the .git/index of a split index, whole: the shared index's entries (read by shared),
// less those the delete bitmap marks, with the replace bitmap's ones replaced by idx's first entries in
// order, and the rest of idx's entries added.
func mergeSplit(idx *Index, hashLen int, shared func(name string) ([]byte, error)) error {
	l := idx.split
	idx.split = nil
	if !slices.ContainsFunc(l.shared, func(b byte) bool { return b != 0 }) {
		return nil
	}
	if shared == nil {
		return &RefusedFile{Reason: "it is a split index (core.splitIndex); grove's write tools write whole indexes only: " +
			"run git update-index --no-split-index"}
	}
	data, err := shared("sharedindex." + hex.EncodeToString(l.shared[:]))
	if err != nil {
		return err
	}
	base, err := parseIndex(data, hashLen)
	if err != nil {
		return fmt.Errorf("reading the shared index: %w", err)
	}
	if base.split != nil || len(l.replaced) > len(idx.Entries) {
		return errors.New("bad split index")
	}
	gone := make([]bool, len(base.Entries))
	for _, p := range l.delete {
		if p >= len(base.Entries) {
			return errors.New("bad split index: deletes past the shared index")
		}
		gone[p] = true
	}
	for k, p := range l.replaced {
		if p >= len(base.Entries) {
			return errors.New("bad split index: replaces past the shared index")
		}
		e := idx.Entries[k]
		if e.Name == "" {
			e.Name = base.Entries[p].Name
		}
		base.Entries[p] = e
	}
	out := make([]IndexEntry, 0, len(base.Entries)+len(idx.Entries)-len(l.replaced))
	for i, e := range base.Entries {
		if !gone[i] {
			out = append(out, e)
		}
	}
	out = append(out, idx.Entries[len(l.replaced):]...)
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		return a.Name < b.Name || a.Name == b.Name && a.Stage < b.Stage
	})
	idx.Entries = out
	return nil
}
