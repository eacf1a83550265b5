package trigram

import (
	"encoding/binary"
	"errors"
	"slices"
	"sync"
	"sync/atomic"
)

// ErrTooLarge is returned when an index would pass its memory cap: it is not built.
var ErrTooLarge = errors.New("trigram index: memory cap reached")

// Index maps trigrams to the files whose text holds them, for one tree. Files are known by their
// slash-separated path relative to the tree; a file is text (indexed), or skipped (binary, too large:
// recorded so that counts stay right, never a candidate). Its methods are safe for concurrent use.
//
// The postings built by [Builder] are sealed into one byte array: per trigram, the delta-varint
// encoded ids of its files. Files updated or added later get a new id whose postings go to a small
// uncompressed overlay; their old id is marked dead.
type Index struct {
	maxBytes int64

	mu    sync.RWMutex // guards all fields below
	files []file       // by id
	ids   map[string]uint32
	order []string // the live paths in walk order
	// orderIDs holds the ids of order's paths, by position, once a walk
	// needed them; nil again when order changes (under mu held for
	// writing). Walks, under mu held for reading, may fill it at once:
	// they compute the same ids.
	orderIDs atomic.Pointer[[]uint32]
	keys     []Trigram // sealed postings: sorted trigrams,
	offs     []uint32  // their lists' starts in data (len(keys)+1 entries),
	data     []byte    // and the lists
	extra    map[Trigram][]uint32
	extraN   int // ids in extra
	dead     int
	text     int64 // bytes of the live text files
	pathLen  int64 // bytes of all paths held
}

type file struct {
	path    string
	size    int64
	skipped bool
	dead    bool
}

// Stats describe an index.
type Stats struct {
	Files     int   // live text files indexed
	Skipped   int   // live files not indexed (binary, too large)
	TextBytes int64 // bytes of the text indexed
	Bytes     int64 // memory the index holds (an estimate: arrays and maps by their size)
	Trigrams  int   // distinct trigrams in the sealed postings
	Overlay   int   // postings added since sealing (updated or new files)
}

// Per-item costs of the estimate: a map entry with its key, a file entry.
const (
	mapEntryCost = 48
	fileCost     = 48
)

// Stats returns the index's sizes.
func (x *Index) Stats() Stats {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return x.statsLocked()
}

func (x *Index) statsLocked() Stats {
	st := Stats{TextBytes: x.text, Trigrams: len(x.keys), Overlay: x.extraN}
	for _, f := range x.files {
		switch {
		case f.dead:
		case f.skipped:
			st.Skipped++
		default:
			st.Files++
		}
	}
	st.Bytes = x.bytesLocked()
	return st
}

// Sizes returns the bytes of the text indexed and the memory the index holds (Stats' TextBytes
// and Bytes), in constant time.
func (x *Index) Sizes() (text, bytes int64) {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return x.text, x.bytesLocked()
}

// bytesLocked is the memory estimate of Stats, in constant time.
// Bytes is Stats().Bytes, without counting the files.
func (x *Index) Bytes() int64 {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return x.bytesLocked()
}

func (x *Index) bytesLocked() int64 {
	return int64(len(x.data)) + int64(4*len(x.offs)+4*len(x.keys)+16*len(x.order)) + x.pathLen +
		int64(len(x.files)*fileCost) + int64(len(x.ids)*mapEntryCost) +
		int64(len(x.extra)*(mapEntryCost+24)+4*x.extraN)
}

// Update records the current content of the file at path: its text, or skipped (binary or too large,
// and then data is not looked at). It replaces what was recorded for path.
func (x *Index) Update(path string, data []byte, skipped bool) error {
	var grams []Trigram
	if !skipped {
		grams = Trigrams(data, nil)
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	x.removeLocked(path)
	if x.maxBytes > 0 && x.bytesLocked()+int64(4*len(grams)+len(path)+fileCost) > x.maxBytes {
		return ErrTooLarge
	}
	id := uint32(len(x.files))
	x.files = append(x.files, file{path: path, size: int64(len(data)), skipped: skipped})
	x.ids[path] = id
	x.order = insertOrdered(x.order, path)
	x.orderIDs.Store(nil)
	x.pathLen += int64(len(path))
	if !skipped {
		x.text += int64(len(data))
	}
	for _, t := range grams {
		x.extra[t] = append(x.extra[t], id)
	}
	x.extraN += len(grams)
	return nil
}

// Remove forgets the file at path, if indexed.
func (x *Index) Remove(path string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.removeLocked(path)
}

// RemoveUnder forgets the files at or below the directory dir ("." for all).
func (x *Index) RemoveUnder(dir string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	for p := range x.ids {
		if Within(p, dir) {
			x.removeLocked(p)
		}
	}
}

// RemoveUnderExcept forgets the files at or below dir that keep lacks.
func (x *Index) RemoveUnderExcept(dir string, keep map[string]bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	for p := range x.ids {
		if Within(p, dir) && !keep[p] {
			x.removeLocked(p)
		}
	}
}

func (x *Index) removeLocked(path string) {
	id, ok := x.ids[path]
	if !ok {
		return
	}
	delete(x.ids, path)
	x.order = deleteOrdered(x.order, path)
	x.orderIDs.Store(nil)
	f := &x.files[id]
	f.dead = true
	x.dead++
	if !f.skipped {
		x.text -= f.size
	}
}

// Has reports whether path is recorded (text or skipped).
func (x *Index) Has(path string) bool {
	x.mu.RLock()
	defer x.mu.RUnlock()
	_, ok := x.ids[path]
	return ok
}

// Paths returns the live paths, in no particular order.
func (x *Index) Paths() []string {
	x.mu.RLock()
	defer x.mu.RUnlock()
	out := make([]string, 0, len(x.ids))
	for p := range x.ids {
		out = append(out, p)
	}
	return out
}

// Worn reports whether updates since sealing have grown the overlay or the dead ids past a quarter
// of the index: a rebuild would make it compact again.
func (x *Index) Worn() bool {
	x.mu.RLock()
	defer x.mu.RUnlock()
	n := len(x.files)
	return n > 1024 && (x.dead > n/4 || int64(4*x.extraN) > max(int64(len(x.data))/4, 1<<20))
}

// Match is a file [Index.Query] found.
type Match struct {
	Path      string
	Candidate bool // may match: the text holds the query's trigrams
	Skipped   bool // binary or too large: never a candidate
}

// Query calls fn for every live file keep accepts (nil keeps all), saying whether it is a candidate
// for q. Files are visited in id order, not path order.
func (x *Index) Query(q *Query, keep func(path string) bool, fn func(Match)) {
	x.mu.RLock()
	defer x.mu.RUnlock()
	var cand []uint32
	all := q.All()
	if !all {
		cand = x.eval(q, map[Trigram][]uint32{})
	}
	next := 0
	for id := range x.files {
		f := &x.files[id]
		if f.dead || keep != nil && !keep(f.path) {
			continue
		}
		m := Match{Path: f.path, Skipped: f.skipped}
		if !f.skipped {
			if all {
				m.Candidate = true
			} else {
				for next < len(cand) && cand[next] < uint32(id) {
					next++
				}
				m.Candidate = next < len(cand) && cand[next] == uint32(id)
			}
		}
		fn(m)
	}
}

// Candidates is the answer to a query: which files may hold a match.
type Candidates struct {
	x    *Index
	n    uint32   // ids at query time; later ones are unknown to the answer
	bits []uint64 // by id: a candidate, or a skipped file
}

// Sizes is the Sizes of the index the candidates come from.
func (c *Candidates) Sizes() (text, bytes int64) { return c.x.Sizes() }

// Candidates evaluates q.
func (x *Index) Candidates(q *Query) *Candidates {
	x.mu.RLock()
	defer x.mu.RUnlock()
	c := &Candidates{x: x, n: uint32(len(x.files)), bits: make([]uint64, (len(x.files)+63)/64)}
	set := func(id uint32) { c.bits[id/64] |= 1 << (id % 64) }
	if q.All() {
		for id := range c.n {
			set(id)
		}
		return c
	}
	for _, id := range x.eval(q, map[Trigram][]uint32{}) {
		set(id)
	}
	for id, f := range x.files {
		if f.skipped {
			set(uint32(id))
		}
	}
	return c
}

// May reports whether the file at path may hold a match: a candidate, a skipped file (binary or
// too large: the searcher says what it is), or a file the index did not know when queried.
func (c *Candidates) May(path string) bool {
	c.x.mu.RLock()
	id, ok := c.x.ids[path]
	c.x.mu.RUnlock()
	return !ok || id >= c.n || c.bits[id/64]&(1<<(id%64)) != 0
}

// WalkMay calls fn with the live files at or below dir ("." for all) in walk order, as they were
// when the query ran, and what May says of each, from the query's bits instead of a lookup of the
// path per file; fn may stop the walk by returning an error, which WalkMay returns (grep `return` on git/git spent about 2 ms of CPU a call hashing
// its 4,824 paths).
func (c *Candidates) WalkMay(dir string, fn func(path string, may bool) error) error {
	type entry struct {
		path string
		may  bool
	}
	c.x.mu.RLock()
	ids := c.x.orderIDsLocked()
	var files []entry
	for i, p := range c.x.order {
		if Within(p, dir) && p != dir {
			id := ids[i]
			files = append(files, entry{p, id >= c.n || c.bits[id/64]&(1<<(id%64)) != 0})
		}
	}
	c.x.mu.RUnlock()
	for _, f := range files {
		if err := fn(f.path, f.may); err != nil {
			return err
		}
	}
	return nil
}

// orderIDsLocked returns the ids of order's paths, by position. x.mu held, for reading at least.
func (x *Index) orderIDsLocked() []uint32 {
	if ids := x.orderIDs.Load(); ids != nil {
		return *ids
	}
	ids := make([]uint32, len(x.order))
	for i, p := range x.order {
		ids[i] = x.ids[p]
	}
	x.orderIDs.Store(&ids)
	return ids
}

// List returns the live text files that may hold a match, sorted (skipped files left out).
func (c *Candidates) List() []string {
	c.x.mu.RLock()
	defer c.x.mu.RUnlock()
	var out []string
	for id := range c.n {
		if f := c.x.files[id]; c.bits[id/64]&(1<<(id%64)) != 0 && !f.dead && !f.skipped {
			out = append(out, c.x.files[id].path)
		}
	}
	slices.Sort(out)
	return out
}

// eval returns the sorted ids (dead ones included) whose trigrams satisfy q; lists memoizes the
// posting lists read.
func (x *Index) eval(q *Query, lists map[Trigram][]uint32) []uint32 {
	switch q.Op {
	case OpNone:
		return nil
	case OpAnd:
		var out []uint32
		first := true
		for _, t := range x.byLength(q.Trigrams, lists) {
			out = intersectOrFirst(out, x.list(t, lists), &first)
			if !first && len(out) == 0 {
				return nil
			}
		}
		for _, s := range q.Sub {
			if s.All() {
				continue
			}
			out = intersectOrFirst(out, x.eval(s, lists), &first)
			if !first && len(out) == 0 {
				return nil
			}
		}
		if first { // an AND of nothing: every id
			return x.everyID()
		}
		return out
	case OpOr:
		var out []uint32
		for _, t := range q.Trigrams {
			out = unionIDs(out, x.list(t, lists))
		}
		for _, s := range q.Sub {
			out = unionIDs(out, x.eval(s, lists))
		}
		return out
	}
	return x.everyID()
}

func intersectOrFirst(acc, l []uint32, first *bool) []uint32 {
	if *first {
		*first = false
		return l
	}
	return intersectIDs(acc, l)
}

// byLength orders ts shortest posting list first, so that intersections shrink fast.
func (x *Index) byLength(ts []Trigram, lists map[Trigram][]uint32) []Trigram {
	out := slices.Clone(ts)
	slices.SortFunc(out, func(a, b Trigram) int { return len(x.list(a, lists)) - len(x.list(b, lists)) })
	return out
}

func (x *Index) everyID() []uint32 {
	out := make([]uint32, len(x.files))
	for i := range out {
		out[i] = uint32(i)
	}
	return out
}

// list returns the sorted ids of the files holding t: the sealed list then the overlay's.
func (x *Index) list(t Trigram, lists map[Trigram][]uint32) []uint32 {
	if l, ok := lists[t]; ok {
		return l
	}
	var out []uint32
	if i, ok := slices.BinarySearch(x.keys, t); ok {
		out = decodeList(x.data[x.offs[i]:x.offs[i+1]], nil)
	}
	out = append(out, x.extra[t]...) // overlay ids are all above the sealed ones
	lists[t] = out
	return out
}

func decodeList(b []byte, out []uint32) []uint32 {
	var id uint32
	for len(b) > 0 {
		d, n := binary.Uvarint(b)
		if n <= 0 {
			break
		}
		b = b[n:]
		id += uint32(d)
		out = append(out, id)
	}
	return out
}

func intersectIDs(a, b []uint32) []uint32 {
	var out []uint32
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] < b[j]:
			i++
		case a[i] > b[j]:
			j++
		default:
			out = append(out, a[i])
			i++
			j++
		}
	}
	return out
}

func unionIDs(a, b []uint32) []uint32 {
	if len(a) == 0 {
		return b
	}
	if len(b) == 0 {
		return a
	}
	out := make([]uint32, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] < b[j]:
			out = append(out, a[i])
			i++
		case a[i] > b[j]:
			out = append(out, b[j])
			j++
		default:
			out = append(out, a[i])
			i++
			j++
		}
	}
	out = append(out, a[i:]...)
	return append(out, b[j:]...)
}

// Within reports whether the slash path p is dir or lies below it ("." holds everything).
func Within(p, dir string) bool {
	if dir == "." || p == dir {
		return true
	}
	return len(p) > len(dir) && p[len(dir)] == '/' && p[:len(dir)] == dir
}
