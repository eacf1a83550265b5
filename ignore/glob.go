package ignore

import "strings"

// This file compiles the glob of one ignore-file line: a literal head,
// compared as a string, and a program of tokens for the rest of the
// subject (see globmatch.go).

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
	shapeFlat           // no "**"
)

// glob is a compiled pattern body: no "!", no trailing "/", and no leading
// "/" (an anchored pattern has it removed).
type glob struct {
	shape shape
	// Counts are int32: an ignore file holds at most maxFileSize bytes.
	depth int32 // shapeDirsTail: the "/" the tokens after "**/" read
	// The last fixed tokens of prog (literals, "?" and sets, after the last
	// star) and the bytes they read, which are the subject's last ones.
	fixed, width int32
	head         string
	tail         string // shapeSuffix: the literal after the star
	prog         []token
}

// isMeta reports whether c is special in a glob.
func isMeta(c byte) bool { return c == '*' || c == '?' || c == '[' || c == '\\' }

// compileGlob compiles a pattern body. It fails for a body that can match
// nothing: one ending in a lone backslash, or holding an unclosed "[" or an
// unknown "[:name:]" class (git check-ignore never reports such a line).
//
// The head is the body's longest prefix free of "*", "?", "[" and "\", and
// a "**" right after it counts as leading, as if a "/" preceded it. That is
// what git check-ignore does: it matches "a**/b" as "a" followed by "**/b"
// (so "ax/y/b" is ignored), but "\a**/b" and "[a]**/b", whose heads are
// empty, with "**" as a plain "*".
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
	fixed, width := fixedEnd(p)
	g.fixed, g.width = int32(fixed), int32(width)
	switch {
	case len(p) == 0:
		g.shape = shapeEmpty
		return
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
		g.shape, g.depth = shapeDirsTail, int32(depth)
	default:
		for _, t := range p {
			if t.kind == tokAny || t.kind == tokDirs {
				return
			}
		}
		g.shape = shapeFlat
	}
}

// fixedEnd returns how many tokens at the end of prog read a fixed number
// of bytes (literals, "?" and sets), and that number.
func fixedEnd(prog []token) (tokens, width int) {
	for i := len(prog) - 1; i >= 0; i-- {
		switch t := prog[i]; t.kind {
		case tokLit:
			width += len(t.lit)
		case tokOne, tokSet:
			width++
		default:
			return tokens, width
		}
		tokens++
	}
	return tokens, width
}

// literal reports whether g matches exactly one subject, its head.
func (g *glob) literal() bool { return g.shape == shapeEmpty }
