package ignore

import (
	"math/bits"
	"strings"
)

// This file compiles the glob of one ignore-file line and matches it
// against a subject: the basename of a path for a pattern without a slash,
// else the path relative to the ignore file's directory.
//
// A glob is a literal head, compared as a string, and a program of tokens
// for the rest of the subject. The program runs over the set of offsets of
// the subject that the tokens read so far can end at, one token at a time:
// each token maps that set to the next, and the subject matches when its
// end is in the last set. Nothing is ever retried, so a program of t tokens
// costs at most O(t × len(subject)) steps (plus the length of each literal
// at each offset): "a*a*a*a*a*a*b" against a long run of "a" costs what any
// glob of its length costs, never an exponential search. Common shapes
// ("*.o", "vendor/*", "**/tmp") take shortcuts that give the same answers.

// tokKind is what one token of a glob program reads.
type tokKind uint8

const (
	tokLit  tokKind = iota // the bytes of lit
	tokOne                 // "?": any byte but "/"
	tokSet                 // "[...]": a byte in set, which never holds "/"
	tokStar                // "*": any run of bytes without "/"
	tokAny                 // "**" at the end or before "\/": any run of bytes
	tokDirs                // "**/": nothing, or any run of bytes ending in "/"
)

type token struct {
	kind tokKind
	lit  string
	set  *byteSet
}

// shape names a program that a shortcut can match.
type shape uint8

const (
	shapeGeneral  shape = iota
	shapeEmpty          // no program: the subject is the head
	shapeStar           // "*"
	shapeAny            // "**" at the end
	shapeSuffix         // "*" then a literal (tail)
	shapeDirsTail       // "**/" then tokens with no other "**", reading depth slashes
)

// glob is a compiled pattern body: no "!", no trailing "/", and no leading
// "/" (an anchored pattern has it removed).
type glob struct {
	head  string
	prog  []token
	shape shape
	tail  string // shapeSuffix: the literal after the star
	depth int    // shapeDirsTail: the "/" the tokens after "**/" read
}

// isMeta reports whether c is special in a glob.
func isMeta(c byte) bool { return c == '*' || c == '?' || c == '[' || c == '\\' }

// compileGlob compiles a pattern body. It fails for a body that can match
// nothing: one ending in a lone backslash, or holding an unclosed "[" or an
// unknown "[:name:]" class (git check-ignore never reports such a line).
//
// The head is the body's longest prefix free of "*", "?", "[" and "\", and
// a "**" right after it counts as leading, as if a "/" preceded it: git
// matches "a**/b" like "a" followed by "**/b" (it ignores "ax/y/b"), but
// "\a**/b" and "[a]**/b", whose heads are empty, with "**" as a plain "*".
func compileGlob(body string) (glob, bool) {
	n := 0
	for n < len(body) && !isMeta(body[n]) {
		n++
	}
	prog, ok := tokenize(body[n:])
	if !ok {
		return glob{}, false
	}
	g := glob{head: body[:n], prog: prog}
	for len(g.prog) > 0 && g.prog[0].kind == tokLit {
		g.head += g.prog[0].lit
		g.prog = g.prog[1:]
	}
	g.classify()
	return g, true
}

// tokenize turns the part of a body after its head into tokens. Following
// gitignore(5), a run of two or more "*" is special only after a "/" (or at
// the start, see compileGlob): at the end it matches everything, and before
// a "/" (which it takes in) zero or more directories. Elsewhere it is a
// plain "*", except before an escaped "/", where git lets it match
// anything, "/" included, but not zero directories: "**\/a" matches "x/a"
// and "x/y/a", not "a".
func tokenize(s string) ([]token, bool) {
	var prog []token
	var lit []byte
	flush := func() {
		if len(lit) > 0 {
			prog = append(prog, token{kind: tokLit, lit: string(lit)})
			lit = lit[:0]
		}
	}
	afterSlash := true
	for i := 0; i < len(s); {
		c := s[i]
		switch c {
		case '*':
			j := i + 1
			for j < len(s) && s[j] == '*' {
				j++
			}
			kind := tokStar
			if j-i > 1 && afterSlash {
				switch rest := s[j:]; {
				case rest == "" || strings.HasPrefix(rest, "\\/"):
					kind = tokAny
				case rest[0] == '/':
					kind = tokDirs
					j++
				}
			}
			flush()
			prog = append(prog, token{kind: kind})
			afterSlash = kind == tokDirs
			i = j
		case '?':
			flush()
			prog = append(prog, token{kind: tokOne})
			afterSlash = false
			i++
		case '[':
			set, next, ok := parseBracket(s, i)
			if !ok {
				return nil, false
			}
			flush()
			prog = append(prog, token{kind: tokSet, set: set})
			afterSlash = false
			i = next
		case '\\':
			if i+1 == len(s) {
				return nil, false
			}
			lit = append(lit, s[i+1])
			afterSlash = s[i+1] == '/'
			i += 2
		default:
			lit = append(lit, c)
			afterSlash = c == '/'
			i++
		}
	}
	flush()
	return prog, true
}

// classify picks the shortcut for g's program, if one applies.
func (g *glob) classify() {
	p := g.prog
	switch {
	case len(p) == 0:
		g.shape = shapeEmpty
	case len(p) == 1 && p[0].kind == tokStar:
		g.shape = shapeStar
	case len(p) == 1 && p[0].kind == tokAny:
		g.shape = shapeAny
	case len(p) == 2 && p[0].kind == tokStar && p[1].kind == tokLit:
		g.shape, g.tail = shapeSuffix, p[1].lit
	case len(p) > 1 && p[0].kind == tokDirs:
		depth := 0
		for _, t := range p[1:] {
			if t.kind == tokAny || t.kind == tokDirs {
				return
			}
			depth += strings.Count(t.lit, "/")
		}
		g.shape, g.depth = shapeDirsTail, depth
	}
}

// literal reports whether g matches exactly one subject, its head.
func (g *glob) literal() bool { return g.shape == shapeEmpty }

// match reports whether g matches all of s.
func (g *glob) match(s string) bool {
	rest, ok := strings.CutPrefix(s, g.head)
	if !ok {
		return false
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
		start, ok := lastComponents(rest, g.depth+1)
		return ok && run(g.prog[1:], rest[start:])
	}
	return run(g.prog, rest)
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
// at an offset in cur, and reports whether there is any.
func step(t token, s string, cur, next offsets) bool {
	found := false
	switch t.kind {
	case tokLit, tokOne, tokSet:
		for w, word := range cur {
			for ; word != 0; word &= word - 1 {
				p := w<<6 + bits.TrailingZeros64(word)
				if q := t.advance(s, p); q >= 0 {
					next.add(q)
					found = true
				}
			}
		}
		return found
	}
	// The stars: sweep the offsets from the lowest in cur, carrying whether
	// the offset before was reachable and what lies between.
	reached, seen := false, false
	for q := cur.lowest(); q <= len(s); q++ {
		in := cur.has(q)
		switch t.kind {
		case tokStar: // from an offset in cur, through bytes that are not "/"
			reached = in || reached && s[q-1] != '/'
		case tokAny: // from any offset in cur, through anything
			reached = true
		case tokDirs: // staying put, or through anything up to a "/"
			reached = in || seen && s[q-1] == '/'
			seen = seen || in
		}
		if reached {
			next.add(q)
			found = true
		}
	}
	return found
}

// advance returns the offset after t matched at offset p of s, or -1.
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

// lowest returns the smallest offset in o, which is not empty.
func (o offsets) lowest() int {
	for w, word := range o {
		if word != 0 {
			return w<<6 + bits.TrailingZeros64(word)
		}
	}
	return len(o) << 6
}
