// Package grep is the search engine behind fsres's grep tool: it compiles a
// pattern with line semantics, extracts the literals a match requires, scans
// whole file buffers for them, and searches a tree on a small worker pool,
// answering in path order.
//
//	p, err := grep.Compile(`TODO|FIXME`, grep.Options{})
//	req := grep.Request{Pattern: p, Max: 200, MaxFileSize: 10 << 20}
//	res, err := grep.Search(ctx, req, grep.Tree{Walk: walk, NewOpener: grep.DirOpener(fsys, ".")})
//
// # Speed
//
// A search reads each file whole with one sized read into a pooled buffer
// (on Linux the file is opened with one openat2 beneath the searched
// directory, and a root's later searches copy a file unchanged since an
// earlier one read it from memory after one fstatat: contents_linux.go)
// and skips it as binary on a NUL byte in its first 8000 bytes. The
// literals every match must contain (a prefix, an inner piece, a set from
// an alternation, lower-cased for caseless patterns) are found with
// SIMD-backed byte search on a rare byte of each (or, when that byte
// proves common in the text, by testing two of its bytes 32, 16 or eight
// positions at a time: pair.go, pair_amd64.s); only the lines holding one
// go to the matcher. A pattern
// that is exactly those literals needs no matcher, nor does one literal
// with ^, $, \b or \B at its ends (shape.go). Lines are matched by a lazily
// built DFA; multiline patterns use Go's regexp on the whole buffer.
//
// # Semantics
//
// Patterns use Go's RE2 syntax and match against each line, as ripgrep does
// without --multiline: ^ and $ match at line boundaries, no part of the
// pattern ever matches the line feed (classes such as \s or [^a] lose it, .
// never matches it, even under (?s)), and a literal line feed in the pattern
// is an error. A carriage return is an ordinary character, so `x$` does not
// match "x\r\n". With [Options.Multiline] a match may span lines: classes keep
// the line feed and (?s) lets . match it.
//
// # Candidate filters
//
// An index that knows which files can hold a match plugs in through
// [Request.Candidate]; [Pattern.Syntax] and [Pattern.Literals] give it the
// parsed pattern and the literals every match contains.
package grep

import (
	"errors"
	"fmt"
	"regexp"
	"regexp/syntax"
)

// Options change how a pattern is read.
type Options struct {
	FixedStrings    bool // the pattern is a literal string, not a regular expression
	Word            bool // match only where the pattern is surrounded by non-word characters or line ends
	CaseInsensitive bool // match letters regardless of case (Unicode simple folding)
	Multiline       bool // a match may span lines
}

// Pattern is a compiled search pattern. It is safe for concurrent use.
type Pattern struct {
	// Syntax is the pattern as matched: parsed with Flags, rewritten for
	// line semantics and simplified. Callers must not modify it.
	Syntax *syntax.Regexp
	// Flags are the parse flags Syntax was read with.
	Flags syntax.Flags
	// Multiline reports whether matches may span lines.
	Multiline bool

	re    *regexp.Regexp
	prog  *syntax.Prog // for the line DFA (not multiline)
	lits  literals     // what every match contains; empty when nothing is known
	pure  bool         // a hit of lits is a match of the whole line: no regex needed
	find  *finder      // searches for lits; nil when there are none or too many
	shape *shape       // when the pattern is one literal with assertions at its ends (shape.go)
}

// ErrLineFeed is returned for a pattern that needs a line feed to match
// while multiline is off.
var ErrLineFeed = errors.New("the pattern contains a line feed (\\n), which never occurs inside a line; set multiline to match across lines")

// Compile reads expr with the given options.
func Compile(expr string, o Options) (*Pattern, error) {
	if expr == "" {
		return nil, errors.New("pattern is empty")
	}
	flags := syntax.Perl &^ syntax.OneLine // ^ and $ at line boundaries
	if !o.Multiline {
		flags &^= syntax.ClassNL // [^a] and [[:space:]] leave out \n
	}
	if o.CaseInsensitive {
		flags |= syntax.FoldCase
	}
	if o.FixedStrings {
		expr = regexp.QuoteMeta(expr)
	}
	if _, err := syntax.Parse(expr, flags); err != nil { // alone first: wrapping must not change its meaning
		return nil, fmt.Errorf("bad pattern: %w", err)
	}
	if o.Word {
		// As ripgrep's -w: the match is delimited by a non-word character or a line end.
		expr = `(?:^|\W)(?:` + expr + `)(?:$|\W)`
	}
	re, err := syntax.Parse(expr, flags)
	if err != nil {
		return nil, fmt.Errorf("bad pattern: %w", err)
	}
	if !o.Multiline {
		if err := stripLineFeed(re); err != nil {
			return nil, err
		}
	}
	re = re.Simplify()
	compiled, err := regexp.Compile(re.String())
	if err != nil {
		return nil, fmt.Errorf("bad pattern: %w", err)
	}
	p := &Pattern{Syntax: re, Flags: flags, Multiline: o.Multiline, re: compiled}
	if !o.Multiline {
		if p.prog, err = syntax.Compile(re); err != nil {
			return nil, fmt.Errorf("bad pattern: %w", err)
		}
	}
	p.lits, p.pure = extract(re)
	p.find = newFinder(p.lits)
	if sh := shapeOf(re); !o.Multiline && p.find != nil && sh != nil && !p.lits.fold &&
		len(p.lits.strs) == 1 && p.lits.strs[0] == string(sh.lit) {
		p.shape = sh
	}
	return p, nil
}

// Literals returns strings one of which every match contains, and whether
// they compare ASCII case-insensitively (then they are lower case). It
// returns nil when the pattern requires no literal.
func (p *Pattern) Literals() (lits []string, fold bool) {
	return p.lits.strs, p.lits.fold
}

// String returns the regular expression as matched.
func (p *Pattern) String() string { return p.re.String() }

// stripLineFeed makes re unable to match a line feed: classes lose it, any
// character becomes any but a line feed, a literal line feed is an error.
func stripLineFeed(re *syntax.Regexp) error {
	switch re.Op {
	case syntax.OpAnyChar:
		re.Op = syntax.OpAnyCharNotNL
	case syntax.OpCharClass:
		re.Rune = removeRune(re.Rune, '\n')
		if len(re.Rune) == 0 {
			re.Op = syntax.OpNoMatch
		}
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			if r == '\n' {
				return ErrLineFeed
			}
		}
	}
	for _, sub := range re.Sub {
		if err := stripLineFeed(sub); err != nil {
			return err
		}
	}
	return nil
}

// removeRune removes c from the sorted range list ranges (lo, hi pairs).
func removeRune(ranges []rune, c rune) []rune {
	out := make([]rune, 0, len(ranges)+2)
	for i := 0; i+1 < len(ranges); i += 2 {
		lo, hi := ranges[i], ranges[i+1]
		if c < lo || c > hi {
			out = append(out, lo, hi)
			continue
		}
		if lo < c {
			out = append(out, lo, c-1)
		}
		if c < hi {
			out = append(out, c+1, hi)
		}
	}
	return out
}
