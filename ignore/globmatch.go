package ignore

import (
	"math/bits"
	"strings"
)

// This file matches a compiled glob against a subject: the basename of a
// path for a pattern without a slash, else the path relative to the ignore
// file's directory.
//
// Common shapes ("*.o", "vendor/*", "**/tmp") take shortcuts. A program
// without "**" runs with one backtracking point, its last star
// (matchFlat). One with "**" runs over the set of offsets of the subject
// that the tokens read so far can end at, one token at a time: each token
// maps that set to the next, and the subject matches when its end is in
// the last set (run). Neither ever retries more than that, so a program of
// t tokens costs at most O(t × len(subject)) steps, times the length of a
// literal: "a*a*a*a*a*a*b" against a long run of "a" costs what any glob
// of its length costs, never an exponential search.

// matchName reports whether g matches name, which holds no "/".
func (g *glob) matchName(name string) bool {
	switch g.shape {
	case shapeStar:
		return strings.HasPrefix(name, g.head)
	case shapeSuffix:
		return len(name) >= len(g.head)+len(g.tail) && strings.HasPrefix(name, g.head) &&
			strings.HasSuffix(name, g.tail)
	}
	return g.match(name)
}

// match reports whether g matches all of s.
func (g *glob) match(s string) bool {
	rest := s
	if g.head != "" {
		var ok bool
		if rest, ok = strings.CutPrefix(s, g.head); !ok {
			return false
		}
	}
	switch g.shape {
	case shapeEmpty:
		return rest == ""
	case shapeStar:
		return strings.IndexByte(rest, '/') < 0
	case shapeAny:
		return true
	case shapeSuffix:
		mid := len(rest) - len(g.tail)
		return mid >= 0 && rest[mid:] == g.tail && strings.IndexByte(rest[:mid], '/') < 0
	case shapeDirsTail:
		// The tokens after "**/" read exactly depth slashes, so they can
		// only match the last depth+1 components of rest.
		start, ok := lastComponents(rest, int(g.depth)+1)
		return ok && matchFlat(g.prog[1:], rest[start:])
	}
	// The fixed tokens at the end can only match the last bytes: try them
	// there first, which rejects most subjects at once.
	mid := len(rest) - int(g.width)
	if mid < 0 {
		return false
	}
	end := len(g.prog) - int(g.fixed)
	if !matchFlat(g.prog[end:], rest[mid:]) {
		return false
	}
	if g.shape == shapeFlat {
		return matchFlat(g.prog[:end], rest[:mid])
	}
	return run(g.prog[:end], rest[:mid])
}

// lastComponents returns the offset where the last k (≥ 1) slash-separated
// components of s begin; false if s has fewer.
func lastComponents(s string, k int) (int, bool) {
	end := len(s)
	for ; k > 1; k-- {
		end = strings.LastIndexByte(s[:end], '/')
		if end < 0 {
			return 0, false
		}
	}
	return strings.LastIndexByte(s[:end], '/') + 1, true
}

// matchFlat reports whether prog, which holds no "**", matches all of s.
// Only literals match "/" in such a program, so its slashes pair up with
// those of s in order, and where a token fails, moving the last star on by
// a byte (never past a "/") is the only choice left to try: earlier stars
// lie in earlier components, which already match, or in the same one,
// where the last star can take whatever moving them would have given it.
func matchFlat(prog []token, s string) bool {
	pi, si := 0, 0
	star, starAt := -1, 0
	for {
		if pi < len(prog) {
			t := prog[pi]
			if t.kind == tokStar {
				star, starAt = pi, si
				pi++
				continue
			}
			if q := t.advance(s, si); q >= 0 {
				pi, si = pi+1, q
				continue
			}
		} else if si == len(s) {
			return true
		}
		if star < 0 || starAt == len(s) || s[starAt] == '/' {
			return false
		}
		starAt++
		pi, si = star+1, starAt
	}
}

// run reports whether prog matches all of s, by stepping the set of
// reachable offsets (see the top of this file).
func run(prog []token, s string) bool {
	words := len(s)/64 + 1
	var buf [8]uint64 // subjects up to 255 bytes need no allocation
	var cur, next offsets
	if words <= len(buf)/2 {
		cur, next = buf[:words], buf[words:2*words]
	} else {
		m := make([]uint64, 2*words)
		cur, next = m[:words], m[words:]
	}
	cur.add(0)
	for _, t := range prog {
		clear(next)
		if !step(t, s, cur, next) {
			return false
		}
		cur, next = next, cur
	}
	return cur.has(len(s))
}

// step sets in next the offsets of s that token t can end at when it starts
// at an offset in cur (not empty), and reports whether there is any.
func step(t token, s string, cur, next offsets) bool {
	n := len(s)
	switch t.kind {
	case tokStar: // from each offset in cur up to the next "/"
		for p := cur.lowest(); p <= n; {
			end := n
			if i := strings.IndexByte(s[p:], '/'); i >= 0 {
				end = p + i
			}
			next.fill(p, end)
			p = cur.after(end)
		}
		return true
	case tokAny: // from the lowest offset in cur to the end
		next.fill(cur.lowest(), n)
		return true
	case tokDirs: // staying put, or to just after any later "/"
		copy(next, cur)
		for p := cur.lowest(); ; {
			i := strings.IndexByte(s[p:], '/')
			if i < 0 {
				return true
			}
			p += i + 1
			next.add(p)
		}
	}
	found := false
	for w, word := range cur {
		for ; word != 0; word &= word - 1 {
			if q := t.advance(s, w<<6+bits.TrailingZeros64(word)); q >= 0 {
				next.add(q)
				found = true
			}
		}
	}
	return found
}

// advance returns the offset after t (not a star) matched at offset p of
// s, or -1.
func (t token) advance(s string, p int) int {
	switch t.kind {
	case tokLit:
		if strings.HasPrefix(s[p:], t.lit) {
			return p + len(t.lit)
		}
	case tokOne:
		if p < len(s) && s[p] != '/' {
			return p + 1
		}
	case tokSet:
		if p < len(s) && t.set.has(s[p]) {
			return p + 1
		}
	}
	return -1
}

// offsets is a set of offsets into a subject, a bit per offset.
type offsets []uint64

func (o offsets) add(p int)      { o[p>>6] |= 1 << (p & 63) }
func (o offsets) has(p int) bool { return o[p>>6]&(1<<(p&63)) != 0 }

// fill adds lo through hi.
func (o offsets) fill(lo, hi int) {
	for w := lo >> 6; w <= hi>>6; w++ {
		mask := ^uint64(0)
		if w == lo>>6 {
			mask &= ^uint64(0) << (lo & 63)
		}
		if w == hi>>6 {
			mask &= ^uint64(0) >> (63 - hi&63)
		}
		o[w] |= mask
	}
}

// lowest returns the smallest offset in o, which is not empty.
func (o offsets) lowest() int { return o.after(-1) }

// after returns the smallest offset in o above p, or one past the largest
// offset o can hold.
func (o offsets) after(p int) int {
	p++
	for w := p >> 6; w < len(o); w++ {
		word := o[w]
		if w == p>>6 {
			word &= ^uint64(0) << (p & 63)
		}
		if word != 0 {
			return w<<6 + bits.TrailingZeros64(word)
		}
	}
	return len(o) << 6
}
