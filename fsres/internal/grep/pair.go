package grep

import "math/bits"

// A needle whose rarest byte is common in the text (a letter of "return"
// every 30 bytes of C) costs a call of bytes.IndexByte per false start. It
// then switches to a pair scan: eight positions at a time, it tests two
// bytes of the literal at their distance apart with word-wide arithmetic
// (SWAR), which leaves one candidate per thousands of bytes in source text
// and no call per byte of the anchor. On amd64 the same test runs on 32
// (AVX2) or 16 (SSE2) positions at once in pair_amd64.s; the word-wide
// code does the rest of a buffer there, and all of it elsewhere.

const (
	swarLow  = 0x0101010101010101
	swarHigh = 0x8080808080808080
)

// Switching to the pair scan: after denseHits false starts of the anchor
// byte in one search that averaged fewer than denseGap bytes apart.
const (
	denseHits = 16
	denseGap  = 64
)

// pair is the two bytes of a needle the pair scan tests.
type pair struct {
	off   [2]int    // offsets in the literal, off[0] < off[1]
	want  [2]uint64 // each byte broadcast to all eight lanes (lower case under fold)
	fold  [2]uint64 // 0x20 broadcast where the byte is a letter compared caselessly, else 0
	lanes pairLanes // want and fold again, for the vector filter
	valid bool      // the literal has two bytes
}

// pairLanes is want[0], want[1], fold[0], fold[1], each byte repeated 32
// times: the vector registers pairMask compares with.
type pairLanes [4][32]byte

// newPair picks the two rarest bytes of lit at different offsets.
func newPair(lit []byte, fold bool) pair {
	if len(lit) < 2 {
		return pair{}
	}
	a := rarest(lit)
	b := -1
	for i, c := range lit {
		if i != a && (b < 0 || commonness(c) < commonness(lit[b])) {
			b = i
		}
	}
	p := pair{off: [2]int{min(a, b), max(a, b)}, valid: true}
	for k, i := range p.off {
		c := lit[i]
		if fold && lower(c) != upper(c) {
			p.fold[k] = 0x20 * swarLow
			c = lower(c)
		}
		p.want[k] = uint64(c) * swarLow
	}
	for k := range 2 {
		for i := range 32 {
			p.lanes[k][i] = byte(p.want[k])
			p.lanes[2+k][i] = byte(p.fold[k])
		}
	}
	return p
}

// scan returns the first offset at or after from where n's literal
// occurs in data, or len(data).
func (p *pair) scan(n *needle, data []byte, from int) int {
	s := from
	for pairWidth > 0 && len(data)-len(n.lit)+1-s >= pairWidth {
		at, mask := pairMask(&data[s], len(data)-len(n.lit)+1-s, p.off[0], p.off[1], &p.lanes)
		s += at
		if mask == 0 {
			break
		}
		for ; mask != 0; mask &= mask - 1 {
			if c := s + bits.TrailingZeros32(mask); n.equal(data[c : c+len(n.lit)]) {
				return c
			}
		}
		s += pairWidth
	}
	return p.scanWords(n, data, s)
}

// scanWords is scan eight bytes at a time, for what the vector filter
// leaves or where there is none.
func (p *pair) scanWords(n *needle, data []byte, from int) int {
	last := len(data) - len(n.lit) // the last possible start
	s := from
	o0, o1 := p.off[0], p.off[1]
	f0, f1, w0, w1 := p.fold[0], p.fold[1], p.want[0], p.want[1]
	for ; s+16 <= last && s+o1+16 <= len(data); s += 16 {
		a, b := data[s+o0:s+o0+16], data[s+o1:s+o1+16]
		z0 := ((load64(a) | f0) ^ w0) | ((load64(b) | f1) ^ w1)
		z1 := ((load64(a[8:]) | f0) ^ w0) | ((load64(b[8:]) | f1) ^ w1)
		t0 := (z0 - swarLow) &^ z0 & swarHigh
		t1 := (z1 - swarLow) &^ z1 & swarHigh
		if t0|t1 == 0 {
			continue
		}
		if c := p.verify(n, data, s, t0); c >= 0 {
			return c
		}
		if c := p.verify(n, data, s+8, t1); c >= 0 {
			return c
		}
	}
	b0, b1, m0, m1 := byte(w0), byte(w1), byte(f0), byte(f1)
	for ; s <= last; s++ {
		if data[s+o0]|m0 == b0 && data[s+o1]|m1 == b1 && n.equal(data[s:s+len(n.lit)]) {
			return s
		}
	}
	return len(data)
}

// verify checks the candidates t (a high bit per lane) of the word at s
// and returns the first that is a match, or -1.
func (p *pair) verify(n *needle, data []byte, s int, t uint64) int {
	for ; t != 0; t &= t - 1 {
		c := s + bits.TrailingZeros64(t)>>3
		if c+len(n.lit) <= len(data) && n.equal(data[c:c+len(n.lit)]) {
			return c
		}
	}
	return -1
}

// load64 reads eight bytes little-endian (one load on the usual CPUs: the
// compiler merges the byte loads).
func load64(b []byte) uint64 {
	_ = b[7]
	return uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
		uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
}
