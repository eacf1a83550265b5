package grep

import "regexp/syntax"

// A pattern that is one literal with assertions at its ends (`\{$`,
// `^#include <`, `\bstatic inline\b`) needs no automaton: a hit of the
// literal is a match when the bytes beside it satisfy the assertions,
// which look only at the byte before and the byte after (a line feed
// stands for the line's ends). A failed hit moves the search on within
// the line, since a later occurrence may still match.

// edge is what one end of a literal asserts.
type edge uint8

const (
	anyEdge    edge = iota
	lineEdge        // ^ before, $ after
	wordEdge        // \b
	noWordEdge      // \B
)

// shape is a pattern made of one case-sensitive literal and its edges.
type shape struct {
	lit           []byte
	before, after edge
}

// shapeOf returns the shape of re, or nil when it has none.
func shapeOf(re *syntax.Regexp) *shape {
	subs := []*syntax.Regexp{re}
	if re.Op == syntax.OpConcat {
		subs = re.Sub
	}
	s := &shape{}
	i := 0
	if i < len(subs) {
		if e, ok := edgeOf(subs[i].Op); ok {
			s.before = e
			i++
		}
	}
	if i >= len(subs) || subs[i].Op != syntax.OpLiteral || subs[i].Flags&syntax.FoldCase != 0 {
		return nil
	}
	s.lit = []byte(string(subs[i].Rune))
	i++
	if i < len(subs) {
		e, ok := edgeOf(subs[i].Op)
		if !ok {
			return nil
		}
		s.after = e
		i++
	}
	if i != len(subs) || s.before == anyEdge && s.after == anyEdge {
		return nil
	}
	return s
}

func edgeOf(op syntax.Op) (edge, bool) {
	switch op {
	case syntax.OpBeginLine, syntax.OpEndLine:
		return lineEdge, true
	case syntax.OpWordBoundary:
		return wordEdge, true
	case syntax.OpNoWordBoundary:
		return noWordEdge, true
	}
	return anyEdge, false
}

// matchAt reports whether the literal, found at c in data, satisfies the
// edges.
func (s *shape) matchAt(data []byte, c int) bool {
	before, after := byte('\n'), byte('\n')
	if c > 0 {
		before = data[c-1]
	}
	end := c + len(s.lit)
	if end < len(data) {
		after = data[end]
	}
	return s.before.holds(before, s.lit[0], true) && s.after.holds(s.lit[len(s.lit)-1], after, false)
}

// holds tells whether the edge holds between bytes a and b; for a line
// edge, the byte outside the literal (a before it, b after it) must be a
// line feed.
func (e edge) holds(a, b byte, atStart bool) bool {
	switch e {
	case lineEdge:
		if atStart {
			return a == '\n'
		}
		return b == '\n'
	case wordEdge:
		return isWordByte(a) != isWordByte(b)
	case noWordEdge:
		return isWordByte(a) == isWordByte(b)
	}
	return true
}

// isWordByte is \w for one byte: ASCII letters, digits and the underscore
// (a byte of a multi-byte character is not a word byte, as for RE2's \b).
func isWordByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_'
}
