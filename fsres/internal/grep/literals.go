package grep

import (
	"regexp/syntax"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Limits of literal extraction: sets grow by alternation and by the cross
// product of a concatenation, and a set too large to search fast is worth
// nothing.
const (
	maxSetSize  = 16 // strings in a set
	maxClassLen = 4  // characters of a class turned into a set
)

// literals is a set of strings one of which every match contains. With fold
// the strings are lower case and compare ASCII case-insensitively.
type literals struct {
	strs []string
	fold bool
}

// info is what extraction knows about one node of the pattern.
type info struct {
	exact  []string // the node matches exactly one of these; nil when unknown
	req    []string // every match of the node contains one of these; nil when unknown
	assert bool     // the node holds an assertion (^, $, \b, …): exact ignores it
}

// extract returns the literals every match of re contains, and whether the
// pattern is exactly that set of strings, so a hit of one is a match.
func extract(re *syntax.Regexp) (literals, bool) {
	fold := hasFold(re)
	in := analyze(re, fold)
	best := in.req
	if in.exact != nil {
		best = in.exact
	}
	if score(best) == 0 {
		return literals{}, false
	}
	pure := in.exact != nil && !in.assert
	return literals{strs: best, fold: fold}, pure
}

// analyze computes the info of re; with fold, its strings are lower case.
func analyze(re *syntax.Regexp, fold bool) info {
	switch re.Op {
	case syntax.OpEmptyMatch:
		return info{exact: []string{""}}
	case syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return info{exact: []string{""}, assert: true}
	case syntax.OpLiteral:
		return literalInfo(re, fold)
	case syntax.OpCharClass:
		return classInfo(re, fold)
	case syntax.OpCapture:
		return analyze(re.Sub[0], fold)
	case syntax.OpQuest:
		sub := analyze(re.Sub[0], fold)
		if sub.exact != nil && len(sub.exact) < maxSetSize {
			return info{exact: union([]string{""}, sub.exact), assert: sub.assert}
		}
		return info{assert: true}
	case syntax.OpPlus:
		sub := analyze(re.Sub[0], fold)
		return info{req: sub.best(), assert: true}
	case syntax.OpRepeat:
		if re.Min == 0 {
			return info{assert: true}
		}
		sub := analyze(re.Sub[0], fold)
		return info{req: sub.best(), assert: true}
	case syntax.OpConcat:
		return concatInfo(re.Sub, fold)
	case syntax.OpAlternate:
		return alternateInfo(re.Sub, fold)
	}
	// Star, any character, no match: nothing known; assert keeps the
	// whole from being called pure.
	return info{assert: true}
}

// best is the most selective string set the node offers.
func (in info) best() []string {
	if in.exact != nil && score(in.exact) >= score(in.req) {
		return in.exact
	}
	return in.req
}

// literalInfo handles a literal. Under case folding, characters whose folds
// are not ASCII (k folds with the Kelvin sign, s with the long s) break it
// into pieces; the longest piece is still required. A case-sensitive letter
// in a folded pattern is compared caselessly: sound, but no longer exact.
func literalInfo(re *syntax.Regexp, fold bool) info {
	if !fold {
		return info{exact: []string{string(re.Rune)}}
	}
	caseless := re.Flags&syntax.FoldCase != 0
	var pieces []string
	var b strings.Builder
	in := info{}
	for _, r := range re.Rune {
		if caseless && !asciiFold(r) {
			pieces = append(pieces, b.String())
			b.Reset()
			continue
		}
		if !caseless && isLetter(r) {
			in.assert = true
		}
		b.WriteRune(asciiLower(r))
	}
	if pieces == nil {
		in.exact = []string{b.String()}
		return in
	}
	pieces = append(pieces, b.String())
	longest := slices.MaxFunc(pieces, func(a, b string) int { return len(a) - len(b) })
	if longest == "" {
		return info{assert: true}
	}
	return info{req: []string{longest}, assert: true}
}

func asciiLower(r rune) rune {
	if 'A' <= r && r <= 'Z' {
		return r + 'a' - 'A'
	}
	return r
}

// asciiFold reports whether every case variant of r is ASCII (or r has
// none), so that ASCII case-insensitive comparison finds exactly its folds.
func asciiFold(r rune) bool {
	if r >= utf8.RuneSelf {
		return unicode.SimpleFold(r) == r
	}
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		if f >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func isLetter(r rune) bool { return unicode.SimpleFold(r) != r }

// classInfo turns a small class into the set of its characters.
func classInfo(re *syntax.Regexp, fold bool) info {
	var chars []string
	n := 0
	for i := 0; i+1 < len(re.Rune); i += 2 {
		n += int(re.Rune[i+1]-re.Rune[i]) + 1
		if n > maxClassLen*2 {
			return info{assert: true}
		}
		for r := re.Rune[i]; r <= re.Rune[i+1]; r++ {
			c := r
			if fold {
				c = asciiLower(r)
			}
			chars = append(chars, string(c))
		}
	}
	chars = dedup(chars)
	if len(chars) > maxClassLen || len(chars) == 0 {
		return info{assert: true}
	}
	in := info{exact: chars}
	if fold && !classIsFolded(re) {
		in.assert = true // [A] compared caselessly finds "a" too: sound, not exact
	}
	return in
}

// classIsFolded reports whether every ASCII letter of the class comes with
// its other case, so that comparing caselessly finds no more than the
// class: (?i)a is [Aa], but [a] under folding is not exact.
func classIsFolded(re *syntax.Regexp) bool {
	for i := 0; i+1 < len(re.Rune); i += 2 {
		for r := re.Rune[i]; r <= re.Rune[i+1]; r++ {
			if r < utf8.RuneSelf && isLetter(r) && !inClass(re.Rune, swapCase(r)) {
				return false
			}
		}
	}
	return true
}

func swapCase(r rune) rune {
	if 'a' <= r && r <= 'z' {
		return r - ('a' - 'A')
	}
	return asciiLower(r)
}

func inClass(ranges []rune, r rune) bool {
	for i := 0; i+1 < len(ranges); i += 2 {
		if ranges[i] <= r && r <= ranges[i+1] {
			return true
		}
	}
	return false
}

// concatInfo multiplies out runs of exact children while the product stays
// small; each run and each child's own requirement is a candidate for what
// the whole requires, and the most selective wins.
func concatInfo(subs []*syntax.Regexp, fold bool) info {
	out := info{exact: []string{""}}
	run := []string{""}
	var cands [][]string
	for _, sub := range subs {
		in := analyze(sub, fold)
		out.assert = out.assert || in.assert
		if in.exact != nil && len(run)*len(in.exact) <= maxSetSize {
			run = cross(run, in.exact)
			continue
		}
		cands = append(cands, run)
		out.exact = nil
		if in.exact != nil {
			run = in.exact
			continue
		}
		run = []string{""}
		if in.req != nil {
			cands = append(cands, in.req)
		}
	}
	if out.exact != nil {
		out.exact = run
		return out
	}
	cands = append(cands, run)
	for _, c := range cands {
		if score(c) > score(out.req) {
			out.req = c
		}
	}
	return out
}

// alternateInfo: a match of the whole is a match of one branch.
func alternateInfo(subs []*syntax.Regexp, fold bool) info {
	var out info
	exact, req := []string{}, []string{}
	for _, sub := range subs {
		in := analyze(sub, fold)
		out.assert = out.assert || in.assert
		if exact != nil && in.exact != nil {
			exact = union(exact, in.exact)
		} else {
			exact = nil
		}
		b := in.best()
		if req != nil && score(b) > 0 {
			req = union(req, b)
		} else {
			req = nil
		}
	}
	if len(exact) <= maxSetSize {
		out.exact = exact
	}
	if len(req) <= maxSetSize {
		out.req = req
	}
	return out
}

// score rates a set: 0 when it requires nothing (unknown, or holding the
// empty string), more for longer shortest strings, less for many strings.
func score(set []string) int {
	if len(set) == 0 {
		return 0
	}
	shortest := len(set[0])
	for _, s := range set {
		shortest = min(shortest, len(s))
	}
	if shortest == 0 {
		return 0
	}
	return min(shortest, 8)*16 - len(set)
}

func cross(a, b []string) []string {
	out := make([]string, 0, len(a)*len(b))
	for _, x := range a {
		for _, y := range b {
			out = append(out, x+y)
		}
	}
	return dedup(out)
}

func union(a, b []string) []string {
	return dedup(append(slices.Clone(a), b...))
}

func dedup(s []string) []string {
	slices.Sort(s)
	return slices.Compact(s)
}

// hasFold reports whether any part of re matches case-insensitively.
func hasFold(re *syntax.Regexp) bool {
	if re.Op == syntax.OpLiteral && re.Flags&syntax.FoldCase != 0 {
		for _, r := range re.Rune {
			if isLetter(r) {
				return true
			}
		}
	}
	if re.Op == syntax.OpCharClass && classHasFoldedLetter(re) {
		return true
	}
	return slices.ContainsFunc(re.Sub, hasFold)
}

// classHasFoldedLetter reports a class holding a letter with one of its
// other cases: (?i)[a] is [Aa].
func classHasFoldedLetter(re *syntax.Regexp) bool {
	for i := 0; i+1 < len(re.Rune) && i < 2*maxClassLen; i += 2 {
		for r := re.Rune[i]; r <= re.Rune[i+1] && r-re.Rune[i] < maxClassLen; r++ {
			if f := unicode.SimpleFold(r); f != r && inClass(re.Rune, f) {
				return true
			}
		}
	}
	return false
}
