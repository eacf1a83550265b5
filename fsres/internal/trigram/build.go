package trigram

import (
	"encoding/binary"
	"slices"
	"sync"
)

// Builder makes an [Index] in one pass: files are added in the order they get their ids, so each
// trigram's list grows by appending the delta from its previous id as a varint. Not safe for
// concurrent use; [Trigrams] may run on other goroutines.
//
//	b := trigram.NewBuilder(maxBytes)
//	err := b.Add("a.go", trigram.Trigrams(data, nil), int64(len(data)), false) // ErrTooLarge past the cap
//	x := b.Seal()
type Builder struct {
	maxBytes int64
	files    []file
	ids      map[string]uint32
	lists    map[Trigram]*posting
	bytes    int64 // the estimate Stats would give, plus slack in the lists
	text     int64
	pathLen  int64
}

type posting struct {
	last uint32
	buf  []byte
}

// postingCost is a list's overhead while building: its map entry, the posting and a slice header.
const postingCost = mapEntryCost + 40

// NewBuilder returns a Builder whose index may hold at most maxBytes (0: no cap).
func NewBuilder(maxBytes int64) *Builder {
	return &Builder{maxBytes: maxBytes, ids: map[string]uint32{}, lists: map[Trigram]*posting{}}
}

// Add records the file at path (each path once) with the distinct trigrams of its text, or as
// skipped. It fails with ErrTooLarge once the index would pass the Builder's cap; the Builder is
// then of no further use.
func (b *Builder) Add(path string, grams []Trigram, size int64, skipped bool) error {
	if _, dup := b.ids[path]; dup {
		return nil
	}
	id := uint32(len(b.files))
	b.files = append(b.files, file{path: path, size: size, skipped: skipped})
	b.ids[path] = id
	b.pathLen += int64(len(path))
	b.bytes += int64(len(path) + fileCost + mapEntryCost)
	if !skipped {
		b.text += size
	}
	var tmp [binary.MaxVarintLen32]byte
	for _, t := range grams {
		p := b.lists[t]
		if p == nil {
			p = &posting{}
			b.lists[t] = p
			b.bytes += postingCost
			// The first id is stored as is (a delta from 0).
		}
		n := binary.PutUvarint(tmp[:], uint64(id-p.last))
		before := cap(p.buf)
		p.buf = append(p.buf, tmp[:n]...)
		b.bytes += int64(cap(p.buf) - before)
		p.last = id
	}
	if b.maxBytes > 0 && b.bytes > b.maxBytes {
		b.lists, b.files, b.ids = nil, nil, nil
		return ErrTooLarge
	}
	return nil
}

// Bytes is the memory the Builder holds now (an estimate).
func (b *Builder) Bytes() int64 { return b.bytes }

// Seal returns the index of the files added. The Builder must not be used after.
func (b *Builder) Seal() *Index {
	x := &Index{maxBytes: b.maxBytes, files: b.files, ids: b.ids, extra: map[Trigram][]uint32{}, text: b.text, pathLen: b.pathLen}
	x.order = make([]string, 0, len(b.files))
	for _, f := range b.files {
		x.order = append(x.order, f.path)
	}
	slices.SortFunc(x.order, comparePaths)
	x.keys = make([]Trigram, 0, len(b.lists))
	total := 0
	for t, p := range b.lists {
		x.keys = append(x.keys, t)
		total += len(p.buf)
	}
	slices.Sort(x.keys)
	x.offs = make([]uint32, 0, len(x.keys)+1)
	x.data = make([]byte, 0, total)
	for _, t := range x.keys {
		x.offs = append(x.offs, uint32(len(x.data)))
		x.data = append(x.data, b.lists[t].buf...)
		delete(b.lists, t) // let the collector take the list now
	}
	x.offs = append(x.offs, uint32(len(x.data)))
	b.lists, b.files, b.ids = nil, nil, nil
	if x.ids == nil {
		x.ids = map[string]uint32{}
	}
	return x
}

// NewIndex returns an empty index that may hold at most maxBytes (0: no cap).
func NewIndex(maxBytes int64) *Index { return NewBuilder(maxBytes).Seal() }

// seen is a set of trigrams, one bit each (2 MiB), reused from file to file through seenPool and
// left empty after each use.
type seen []uint64

var seenPool = sync.Pool{New: func() any { s := make(seen, 1<<24/64); return &s }}

// smallText is the size below which Trigrams sorts rather than use a 2 MiB set.
const smallText = 16 << 10

// Trigrams returns the distinct trigrams of data, case-folded as the index stores them (ASCII
// letters lowered), appended to out in no particular order. Safe for concurrent use.
func Trigrams(data []byte, out []Trigram) []Trigram {
	if len(data) < smallText {
		return sortedTrigrams(data, out)
	}
	s := seenPool.Get().(*seen)
	defer seenPool.Put(s)
	return appendTrigrams(data, out, *s)
}

func sortedTrigrams(data []byte, out []Trigram) []Trigram {
	if len(data) < 3 {
		return out
	}
	start := len(out)
	t := Trigram(foldByte(data[0]))<<8 | Trigram(foldByte(data[1]))
	for _, c := range data[2:] {
		t = (t<<8 | Trigram(foldByte(c))) & 0xFFFFFF
		out = append(out, t)
	}
	slices.Sort(out[start:])
	return append(out[:start], slices.Compact(out[start:])...)
}

func appendTrigrams(data []byte, out []Trigram, s seen) []Trigram {
	if len(data) < 3 {
		return out
	}
	start := len(out)
	t := Trigram(foldByte(data[0]))<<8 | Trigram(foldByte(data[1]))
	for _, c := range data[2:] {
		t = (t<<8 | Trigram(foldByte(c))) & 0xFFFFFF
		w, bit := t>>6, uint64(1)<<(t&63)
		if s[w]&bit == 0 {
			s[w] |= bit
			out = append(out, t)
		}
	}
	for _, t := range out[start:] { // leave the set empty for the next file
		s[t>>6] = 0
	}
	return out
}
