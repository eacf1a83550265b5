package grep

import (
	"bytes"
)

// maxStreams bounds the passes a finder makes over a buffer: each needle
// is one pass (a caseless one two, one per case of its anchor byte).
const maxStreams = 8

// finder finds where one of a set of literals occurs in a buffer. Each
// needle looks for its rarest byte with the SIMD-backed bytes.IndexByte
// (in both cases if caseless), compares the literal around each hit, and
// remembers its next hit, so a buffer is read once per needle and case,
// whatever the number of candidates. Anchoring on a rare byte rather than
// the first (as bytes.Index does) saves most false starts: in C, "s"
// starts a false candidate every 20 bytes, "b" every 70.
type finder struct {
	needles []needle
}

// needle is one literal.
type needle struct {
	lit    []byte // lower case when fold
	fold   bool
	anchor int     // offset in lit of the byte searched for
	cases  [2]byte // that byte in lower and upper case; equal if not a letter or not fold
	pair   pair    // for the pair scan (pair.go), when the anchor byte turns out common
}

// newFinder returns a finder for lits, or nil when they are too many to
// search fast.
func newFinder(lits literals) *finder {
	if len(lits.strs) == 0 {
		return nil
	}
	f := &finder{}
	streams := 0
	for _, s := range lits.strs {
		n := needle{lit: []byte(s), fold: lits.fold}
		n.anchor = rarest(n.lit)
		n.pair = newPair(n.lit, n.fold)
		c := n.lit[n.anchor]
		n.cases = [2]byte{c, c}
		if n.fold {
			n.cases[1] = upper(c)
		}
		streams++
		if n.cases[0] != n.cases[1] {
			streams++
		}
		f.needles = append(f.needles, n)
	}
	if streams > maxStreams {
		return nil
	}
	return f
}

// cursor is the state of a finder over one buffer: the next hit of each
// needle (and of each case of a caseless anchor) at or after some offset.
type cursor struct {
	f     *finder
	data  []byte
	next  [][3]int // per needle: hit, lower-case anchor, upper-case anchor; -1 unknown
	dense []bool   // per needle: its anchor byte proved common; kept across buffers of one finder
}

func (c *cursor) reset(f *finder, data []byte) {
	if c.f != f {
		c.dense = make([]bool, len(f.needles))
	}
	c.f, c.data = f, data
	if cap(c.next) < len(f.needles) {
		c.next = make([][3]int, len(f.needles))
	}
	c.next = c.next[:len(f.needles)]
	for i := range c.next {
		c.next[i] = [3]int{-1, -1, -1}
	}
}

// find returns the first offset at or after from where a needle occurs, or
// -1.
func (c *cursor) find(from int) int {
	best := -1
	for i := range c.f.needles {
		at := c.next[i][0]
		if at < from && at != len(c.data) {
			at = c.search(i, from)
			c.next[i][0] = at
		}
		if at < len(c.data) && (best < 0 || at < best) {
			best = at
		}
	}
	return best
}

// search finds needle i at or after from; len(data) means nowhere.
func (c *cursor) search(i, from int) int {
	n := &c.f.needles[i]
	if c.dense[i] {
		return n.pair.scan(n, c.data, from)
	}
	misses := 0
	for start := from; start+len(n.lit) <= len(c.data); {
		at := c.anchorAt(i, 1, start+n.anchor)
		if n.cases[0] != n.cases[1] {
			at = min(at, c.anchorAt(i, 2, start+n.anchor))
		}
		if at >= len(c.data) {
			break
		}
		s := at - n.anchor
		if s >= from && s+len(n.lit) <= len(c.data) && n.equal(c.data[s:s+len(n.lit)]) {
			return s
		}
		start = s + 1
		if misses++; misses == denseHits && n.pair.valid && start-from < denseHits*denseGap {
			c.dense[i] = true
			return n.pair.scan(n, c.data, start)
		}
	}
	return len(c.data)
}

// anchorAt returns the next offset at or after from of needle i's anchor
// byte in case k (1 lower, 2 upper), or len(data).
func (c *cursor) anchorAt(i, k, from int) int {
	at := c.next[i][k]
	if at >= from || at == len(c.data) {
		return at
	}
	at = len(c.data)
	if from < len(c.data) {
		if j := bytes.IndexByte(c.data[from:], c.f.needles[i].cases[k-1]); j >= 0 {
			at = from + j
		}
	}
	c.next[i][k] = at
	return at
}

func (n *needle) equal(text []byte) bool {
	if n.fold {
		return equalFold(text, n.lit)
	}
	return bytes.Equal(text, n.lit)
}

// equalFold compares text with lit (lower case) ignoring ASCII case.
func equalFold(text, lit []byte) bool {
	for i, c := range lit {
		t := text[i]
		if t != c && lower(t) != c {
			return false
		}
	}
	return true
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func upper(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return c - ('a' - 'A')
	}
	return c
}

// rarest returns the offset of the byte of lit least likely in source
// text, counting both cases of a letter.
func rarest(lit []byte) int {
	best := 0
	for i, c := range lit {
		if commonness(c) < commonness(lit[best]) {
			best = i
		}
	}
	return best
}

// commonness is a rough rank of how often a byte occurs in source code and
// prose, both cases of a letter together: higher is more common.
func commonness(c byte) int {
	c = lower(c)
	switch {
	case c == ' ' || c == '\t':
		return 100
	case 'a' <= c && c <= 'z':
		return letterRank[c-'a']
	case '0' <= c && c <= '9':
		return 30
	case c == '_' || c == '(' || c == ')' || c == ';' || c == ',' || c == '.' || c == '=' || c == '*' || c == '"':
		return 50
	case c >= 0x80:
		return 10
	}
	return 25
}

// letterRank: e, t, a, o, i, n, s, r most common, then down to q, z, j, x.
var letterRank = [26]int{
	'a' - 'a': 80, 'b' - 'a': 40, 'c' - 'a': 60, 'd' - 'a': 55, 'e' - 'a': 90, 'f' - 'a': 50, 'g' - 'a': 40,
	'h' - 'a': 45, 'i' - 'a': 75, 'j' - 'a': 8, 'k' - 'a': 15, 'l' - 'a': 60, 'm' - 'a': 45, 'n' - 'a': 72,
	'o' - 'a': 70, 'p' - 'a': 45, 'q' - 'a': 5, 'r' - 'a': 70, 's' - 'a': 72, 't' - 'a': 85, 'u' - 'a': 50,
	'v' - 'a': 25, 'w' - 'a': 25, 'x' - 'a': 15, 'y' - 'a': 25, 'z' - 'a': 6,
}
