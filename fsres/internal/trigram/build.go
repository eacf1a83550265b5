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
	// A trigram's posting is posts[n-1], where n is dense[t] for a trigram of three ASCII bytes (most
	// of source code's: an array lookup, not a map's) and sparse[t] for the others.
	dense   []int32
	sparse  map[Trigram]int32
	posts   []posting
	bytes   int64 // the estimate Stats would give, plus slack in the lists
	text    int64
	pathLen int64
}

type posting struct {
	last uint32
	buf  []byte
}

// postingCost is a list's overhead while building: the posting with its slice header, and room for
// the slice of postings to grow. The dense table (8 MiB while building) is not counted: it is gone
// once the index is sealed.
const postingCost = 64

// asciiTrigram reports whether t's three bytes are ASCII, and its slot in the dense table.
func asciiTrigram(t Trigram) (int, bool) {
	return int(t>>16)<<14 | int(t>>8&0x7f)<<7 | int(t&0x7f), t&0x808080 == 0
}

// NewBuilder returns a Builder whose index may hold at most maxBytes (0: no cap).
func NewBuilder(maxBytes int64) *Builder {
	return &Builder{maxBytes: maxBytes, ids: map[string]uint32{}, dense: make([]int32, 1<<21), sparse: map[Trigram]int32{}}
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
		p := b.posting(t)
		n := binary.PutUvarint(tmp[:], uint64(id-p.last)) // the first id is a delta from 0
		before := cap(p.buf)
		p.buf = append(p.buf, tmp[:n]...)
		b.bytes += int64(cap(p.buf) - before)
		p.last = id
	}
	if b.maxBytes > 0 && b.bytes > b.maxBytes {
		b.dense, b.sparse, b.posts, b.files, b.ids = nil, nil, nil, nil, nil
		return ErrTooLarge
	}
	return nil
}

// posting returns t's posting, adding an empty one the first time.
func (b *Builder) posting(t Trigram) *posting {
	slot, ascii := asciiTrigram(t)
	var n int32
	if ascii {
		n = b.dense[slot]
	} else {
		n = b.sparse[t]
	}
	if n == 0 {
		b.posts = append(b.posts, posting{})
		n = int32(len(b.posts))
		if ascii {
			b.dense[slot] = n
		} else {
			b.sparse[t] = n
		}
		b.bytes += postingCost
	}
	return &b.posts[n-1]
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
	type entry struct {
		t Trigram
		n int32
	}
	entries := make([]entry, 0, len(b.posts))
	total := 0
	for slot, n := range b.dense {
		if n != 0 {
			entries = append(entries, entry{Trigram(slot>>14)<<16 | Trigram(slot>>7&0x7f)<<8 | Trigram(slot&0x7f), n})
			total += len(b.posts[n-1].buf)
		}
	}
	for t, n := range b.sparse {
		entries = append(entries, entry{t, n})
		total += len(b.posts[n-1].buf)
	}
	b.dense, b.sparse = nil, nil
	slices.SortFunc(entries, func(a, b entry) int { return int(a.t) - int(b.t) })
	x.keys = make([]Trigram, 0, len(entries))
	x.offs = make([]uint32, 0, len(entries)+1)
	x.data = make([]byte, 0, total)
	for _, e := range entries {
		x.keys = append(x.keys, e.t)
		x.offs = append(x.offs, uint32(len(x.data)))
		p := &b.posts[e.n-1]
		x.data = append(x.data, p.buf...)
		p.buf = nil // let the collector take the list now
	}
	x.offs = append(x.offs, uint32(len(x.data)))
	b.posts, b.files, b.ids = nil, nil, nil
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
