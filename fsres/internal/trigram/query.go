package trigram

import (
	"slices"
	"strings"
)

// Op is what a [Query] node asks of a file's trigrams.
type Op uint8

const (
	OpAll  Op = iota // every file may match: the index cannot narrow the search
	OpNone           // no file can match
	OpAnd            // every trigram and every sub-query
	OpOr             // some trigram or some sub-query
)

// A Query is a boolean formula over trigrams: a file whose (case-folded) text holds the trigrams
// the formula asks for may match the pattern it was planned from, and no other file can.
type Query struct {
	Op       Op
	Trigrams []Trigram // sorted, unique
	Sub      []*Query
}

// Trigram is three bytes of case-folded text (ASCII letters lowered), packed big-endian into the
// low 24 bits.
type Trigram uint32

func (t Trigram) String() string {
	return string([]byte{byte(t >> 16), byte(t >> 8), byte(t)})
}

var (
	allQuery  = &Query{Op: OpAll}
	noneQuery = &Query{Op: OpNone}
)

// All reports whether q matches every file, so the index would narrow nothing.
func (q *Query) All() bool { return q == nil || q.Op == OpAll }

// String writes q in a compact form for tests and logs: "abc" for a trigram, & and | between
// terms, parentheses around sub-queries, "+" for all and "-" for none.
func (q *Query) String() string {
	switch q.Op {
	case OpAll:
		return "+"
	case OpNone:
		return "-"
	}
	sep := " & "
	if q.Op == OpOr {
		sep = " | "
	}
	var terms []string
	for _, t := range q.Trigrams {
		terms = append(terms, quoteTrigram(t))
	}
	for _, s := range q.Sub {
		terms = append(terms, "("+s.String()+")")
	}
	return strings.Join(terms, sep)
}

func quoteTrigram(t Trigram) string { return quoteBytes(t.String()) }

func quoteBytes(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			b.WriteString(`\x`)
			b.WriteByte("0123456789abcdef"[c>>4])
			b.WriteByte("0123456789abcdef"[c&15])
			continue
		}
		b.WriteByte(c)
	}
	b.WriteByte('"')
	return b.String()
}

// and returns a ∧ b, simplified.
func and(a, b *Query) *Query {
	switch {
	case a.Op == OpNone || b.Op == OpNone:
		return noneQuery
	case a.Op == OpAll:
		return b
	case b.Op == OpAll:
		return a
	}
	return merge(OpAnd, a, b)
}

// or returns a ∨ b, simplified.
func or(a, b *Query) *Query {
	switch {
	case a.Op == OpAll || b.Op == OpAll:
		return allQuery
	case a.Op == OpNone:
		return b
	case b.Op == OpNone:
		return a
	}
	return merge(OpOr, a, b)
}

// merge joins a and b under op, flattening operands that already use op.
func merge(op Op, a, b *Query) *Query {
	q := &Query{Op: op}
	for _, x := range []*Query{a, b} {
		if x.Op == op || len(x.Trigrams) == 1 && len(x.Sub) == 0 {
			// Same operator, or a single trigram, which reads the same under either.
			q.Trigrams = append(q.Trigrams, x.Trigrams...)
			q.Sub = append(q.Sub, x.Sub...)
			continue
		}
		q.Sub = append(q.Sub, x)
	}
	slices.Sort(q.Trigrams)
	q.Trigrams = slices.Compact(q.Trigrams)
	return q
}

// stringsQuery is the query "the text holds one of ss": an OR over the strings of the AND of each
// one's trigrams. A string shorter than three bytes says nothing, so then it is all; an empty set
// (nothing can match) is none.
func stringsQuery(ss []string) *Query {
	q := noneQuery
	for _, s := range ss {
		if len(s) < 3 {
			return allQuery
		}
		q = or(q, stringQuery(s))
	}
	return q
}

// stringQuery is the AND of the trigrams of s (at least three bytes, already folded).
func stringQuery(s string) *Query {
	q := &Query{Op: OpAnd}
	for i := 0; i+3 <= len(s); i++ {
		q.Trigrams = append(q.Trigrams, Trigram(s[i])<<16|Trigram(s[i+1])<<8|Trigram(s[i+2]))
	}
	slices.Sort(q.Trigrams)
	q.Trigrams = slices.Compact(q.Trigrams)
	return q
}
