package trigram

import (
	"regexp/syntax"
	"slices"
	"unicode"
	"unicode/utf8"
)

// Plan returns the trigram query of the RE2 expression expr as package regexp compiles it (Perl
// flags): every file holding a match of expr satisfies the query. A pattern it cannot parse, or from
// which nothing can be extracted, plans to [OpAll]. The expression should be the one the matcher
// runs, with its flags applied ((?i) for case insensitivity, \b for whole words, QuoteMeta for
// fixed strings): regexp.Regexp's String method gives it.
func Plan(expr string) *Query {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return allQuery
	}
	return PlanSyntax(re.Simplify())
}

// PlanSyntax is [Plan] for a parsed expression (simplified, so that it has no OpRepeat left;
// one that has is planned soundly but less sharply).
func PlanSyntax(re *syntax.Regexp) *Query {
	return analyze(re, 0).final()
}

// Set bounds: past them a set is turned into trigrams and forgotten, so that the planning of an
// alternation or a class stays small (the sizes follow the paper's reasoning: a few dozen strings
// keep queries short and still sharp).
const (
	maxSet      = 32  // strings in an exact, prefix or suffix set
	maxClass    = 256 // runes of a character class enumerated
	maxDepth    = 1000
	maxStrBytes = 64 // longest prefix or suffix string kept; longer ones go to the query
)

// info is what planning knows of an expression (the paper's five facts): whether it matches the empty
// string; when known, the exact set of strings it matches; otherwise sets of strings every match
// starts and ends with; and a query every text holding a match satisfies. Strings are case-folded.
type info struct {
	canEmpty bool
	known    bool     // exact is the set of all matches
	exact    []string // sorted, unique; when known
	prefix   []string // when !known
	suffix   []string // when !known
	match    *Query
}

func emptyInfo() info {
	return info{canEmpty: true, known: true, exact: []string{""}, match: allQuery}
}

func anyCharInfo() info {
	return info{prefix: []string{""}, suffix: []string{""}, match: allQuery}
}

func noMatchInfo() info {
	return info{known: true, exact: []string{}, match: noneQuery}
}

func analyze(re *syntax.Regexp, depth int) info {
	if depth > maxDepth {
		return info{canEmpty: true, prefix: []string{""}, suffix: []string{""}, match: allQuery}
	}
	switch re.Op {
	case syntax.OpNoMatch:
		return noMatchInfo()
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return emptyInfo()
	case syntax.OpLiteral:
		x := emptyInfo()
		for _, r := range re.Rune {
			x = concat(x, runeInfo(r, re.Flags&syntax.FoldCase != 0))
		}
		return x
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		return anyCharInfo()
	case syntax.OpCharClass:
		return classInfo(re.Rune)
	case syntax.OpCapture:
		return analyze(re.Sub[0], depth+1)
	case syntax.OpStar:
		return info{canEmpty: true, prefix: []string{""}, suffix: []string{""}, match: allQuery}
	case syntax.OpQuest:
		return alternate(analyze(re.Sub[0], depth+1), emptyInfo())
	case syntax.OpPlus:
		return analyze(re.Sub[0], depth+1).inexact()
	case syntax.OpRepeat:
		if re.Min == 0 {
			return info{canEmpty: true, prefix: []string{""}, suffix: []string{""}, match: allQuery}
		}
		return analyze(re.Sub[0], depth+1).inexact()
	case syntax.OpConcat:
		x := emptyInfo()
		for _, s := range re.Sub {
			x = concat(x, analyze(s, depth+1))
		}
		return x
	case syntax.OpAlternate:
		x := noMatchInfo()
		for _, s := range re.Sub {
			x = alternate(x, analyze(s, depth+1))
		}
		return x
	}
	return info{canEmpty: true, prefix: []string{""}, suffix: []string{""}, match: allQuery}
}

// runeInfo is the info of one literal rune, with its case variants when fold is set. U+FFFD also
// matches each byte of invalid UTF-8, which the text need not spell as U+FFFD: it is any character.
func runeInfo(r rune, fold bool) info {
	if r == utf8.RuneError || !utf8.ValidRune(r) {
		return anyCharInfo()
	}
	set := []string{foldString(string(r))}
	if fold {
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			set = append(set, foldString(string(f)))
		}
	}
	slices.Sort(set)
	return info{known: true, exact: slices.Compact(set), match: allQuery}
}

// classInfo is the info of a character class given as rune ranges: the set of its characters when
// it is small, any character otherwise.
func classInfo(ranges []rune) info {
	n := 0
	for i := 0; i+1 < len(ranges); i += 2 {
		lo, hi := ranges[i], ranges[i+1]
		if hi >= utf8.RuneError && lo <= utf8.RuneError || hi >= 0xD800 && lo <= 0xDFFF {
			return anyCharInfo() // U+FFFD stands for invalid bytes too; surrogates are never matched
		}
		n += int(hi-lo) + 1
		if n > maxClass {
			return anyCharInfo()
		}
	}
	if n == 0 {
		return noMatchInfo()
	}
	var set []string
	for i := 0; i+1 < len(ranges); i += 2 {
		for r := ranges[i]; r <= ranges[i+1]; r++ {
			set = append(set, foldString(string(r)))
		}
	}
	slices.Sort(set)
	set = slices.Compact(set)
	if len(set) > maxSet {
		return anyCharInfo()
	}
	return info{known: true, exact: set, match: allQuery}
}

// foldString lowers the ASCII letters of s, as the index does with the text.
func foldString(s string) string {
	b := []byte(s)
	for i, c := range b {
		b[i] = foldByte(c)
	}
	return string(b)
}

func foldByte(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// concat is the info of x followed by y.
func concat(x, y info) info {
	z := info{canEmpty: x.canEmpty && y.canEmpty, match: and(x.match, y.match)}
	if x.known && y.known {
		z.known, z.exact = true, cross(x.exact, y.exact)
		return z.bounded()
	}
	// Every match of z is a match of x then one of y: it starts with a start of x (of y too when x
	// can be empty), and ends alike.
	if x.known {
		z.prefix = cross(x.exact, y.prefix)
	} else {
		z.prefix = x.prefix
		if x.canEmpty {
			z.prefix = union(z.prefix, y.starts())
		}
	}
	if y.known {
		z.suffix = cross(x.ends(), y.exact)
	} else {
		z.suffix = y.suffix
		if y.canEmpty {
			z.suffix = union(z.suffix, x.ends())
		}
	}
	if !x.known && !y.known {
		// The end of x's match meets the start of y's: the text holds one of the pairs.
		if j := cross(x.suffix, y.prefix); len(j) <= maxSet {
			z.match = and(z.match, stringsQuery(j))
		} else {
			z.match = and(z.match, and(stringsQuery(x.suffix), stringsQuery(y.prefix)))
		}
	}
	return z.bounded()
}

// alternate is the info of x|y.
func alternate(x, y info) info {
	if x.known && y.known {
		z := info{canEmpty: x.canEmpty || y.canEmpty, known: true, exact: union(x.exact, y.exact), match: or(x.match, y.match)}
		return z.bounded()
	}
	// Each side's query keeps what its own sets say, so that "abc.*def|ghi" reads (abc ∧ def) ∨ ghi
	// rather than losing which strings go together.
	return info{
		canEmpty: x.canEmpty || y.canEmpty,
		prefix:   union(x.starts(), y.starts()),
		suffix:   union(x.ends(), y.ends()),
		match:    or(x.full(), y.full()),
	}.bounded()
}

// starts and ends are the strings every match starts and ends with.
func (x info) starts() []string {
	if x.known {
		return x.exact
	}
	return x.prefix
}

func (x info) ends() []string {
	if x.known {
		return x.exact
	}
	return x.suffix
}

// full is x's query with what its sets say added.
func (x info) full() *Query {
	if x.known {
		return and(x.match, stringsQuery(x.exact))
	}
	return and(x.match, and(stringsQuery(x.prefix), stringsQuery(x.suffix)))
}

// final is the query of a whole pattern.
func (x info) final() *Query { return x.full() }

// inexact forgets x's exact set, keeping it as the prefix and suffix sets, with its trigrams in the
// query: what x+ knows (every match of x+ starts with a match of x and ends with one).
func (x info) inexact() info {
	if !x.known {
		return x
	}
	return info{canEmpty: x.canEmpty, prefix: x.exact, suffix: x.exact, match: and(x.match, stringsQuery(x.exact))}.bounded()
}

// bounded keeps x's sets small: a set too large goes into the query, and prefix and suffix strings
// are cut to their first (last) bytes, which still start (end) every match.
func (x info) bounded() info {
	if x.known && len(x.exact) > maxSet {
		x = info{canEmpty: x.canEmpty, prefix: x.exact, suffix: x.exact, match: and(x.match, stringsQuery(x.exact))}
	}
	if x.known {
		return x
	}
	x.prefix, x.match = trimSet(x.prefix, x.match, func(s string, n int) string { return s[:n] })
	x.suffix, x.match = trimSet(x.suffix, x.match, func(s string, n int) string { return s[len(s)-n:] })
	return x
}

// trimSet shortens the strings of set while it is too large or they are too long, first adding
// their trigrams to match; cut keeps n bytes of a string.
func trimSet(set []string, match *Query, cut func(s string, n int) string) ([]string, *Query) {
	long := false
	for _, s := range set {
		long = long || len(s) > maxStrBytes
	}
	if len(set) <= maxSet && !long {
		return set, match
	}
	match = and(match, stringsQuery(set))
	for n := 2; n >= 0; n-- {
		short := make([]string, 0, len(set))
		for _, s := range set {
			short = append(short, cut(s, min(n, len(s))))
		}
		slices.Sort(short)
		short = slices.Compact(short)
		if len(short) <= maxSet {
			return short, match
		}
	}
	return []string{""}, match
}

// cross is {a+b : a in xs, b in ys}. Callers keep both sets bounded (maxSet), so the product is
// at most maxSet² strings before bounded shrinks it.
func cross(xs, ys []string) []string {
	out := make([]string, 0, len(xs)*len(ys))
	for _, a := range xs {
		for _, b := range ys {
			out = append(out, a+b)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func union(xs, ys []string) []string {
	out := append(slices.Clone(xs), ys...)
	slices.Sort(out)
	return slices.Compact(out)
}
