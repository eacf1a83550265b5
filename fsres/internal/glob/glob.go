// Package glob owns the path patterns of the search and grep tools: "**"
// across directories, path.Match within a segment, and whether a directory
// may hold a match (so a walk can skip it).
//
//	g, err := glob.Compile("src/**/*.go")
//	g.Match("src/a/b.go") // true
package glob

import (
	"fmt"
	"path"
	"strings"
)

// A Glob matches slash-separated relative paths. Segments are path.Match
// patterns; a "**" segment matches any number of segments (one or more at
// the end). A pattern without "/" matches the base name at any depth.
// Segments are compiled once into cheap forms (literal, "*", "*.ext").
type Glob struct {
	segs     []globSeg
	baseOnly bool
}

type segKind int

const (
	segLiteral segKind = iota // exact name
	segAny                    // "*"
	segSuffix                 // "*" + literal, e.g. "*.go"
	segDeep                   // "**"
	segPattern                // anything else: path.Match
)

type globSeg struct {
	kind segKind
	s    string // the literal, the suffix, or the pattern
}

// Compile parses pattern into a [Glob].
func Compile(pattern string) (*Glob, error) {
	p := strings.TrimPrefix(strings.TrimPrefix(pattern, "./"), "/")
	if p == "" {
		return nil, fmt.Errorf("empty pattern %q", pattern)
	}
	g := &Glob{baseOnly: !strings.Contains(p, "/")}
	for seg := range strings.SplitSeq(p, "/") {
		if seg == "" {
			continue // "a//b"
		}
		if _, err := path.Match(seg, ""); err != nil {
			return nil, fmt.Errorf("bad pattern %q: %w", pattern, err)
		}
		g.segs = append(g.segs, compileSeg(seg))
	}
	return g, nil
}

func compileSeg(seg string) globSeg {
	const meta = `*?[\`
	switch {
	case seg == "**":
		return globSeg{kind: segDeep}
	case seg == "*":
		return globSeg{kind: segAny}
	case !strings.ContainsAny(seg, meta):
		return globSeg{kind: segLiteral, s: seg}
	case seg[0] == '*' && !strings.ContainsAny(seg[1:], meta):
		return globSeg{kind: segSuffix, s: seg[1:]}
	}
	return globSeg{kind: segPattern, s: seg}
}

func (s globSeg) match(name string) bool {
	switch s.kind {
	case segLiteral:
		return name == s.s
	case segAny, segDeep:
		return true
	case segSuffix:
		return strings.HasSuffix(name, s.s)
	}
	ok, _ := path.Match(s.s, name) // validated in compileGlob
	return ok
}

// Match reports whether rel matches the whole pattern.
func (g *Glob) Match(rel string) bool {
	if g.baseOnly {
		return matchSegs(g.segs, rel[strings.LastIndexByte(rel, '/')+1:])
	}
	return matchSegs(g.segs, rel)
}

// MayMatchBelow reports whether some path below the directory dir could
// match, so a walk can skip the rest.
func (g *Glob) MayMatchBelow(dir string) bool {
	return g.baseOnly || prefixSegs(g.segs, dir)
}

func matchSegs(segs []globSeg, rest string) bool {
	if len(segs) == 0 {
		return rest == ""
	}
	if segs[0].kind == segDeep {
		if len(segs) == 1 {
			return rest != ""
		}
		for {
			if matchSegs(segs[1:], rest) {
				return true
			}
			i := strings.IndexByte(rest, '/')
			if i < 0 {
				return false
			}
			rest = rest[i+1:]
		}
	}
	if rest == "" {
		return false
	}
	head, tail, _ := strings.Cut(rest, "/")
	return segs[0].match(head) && matchSegs(segs[1:], tail)
}

func prefixSegs(segs []globSeg, dir string) bool {
	for dir != "" {
		if len(segs) == 0 {
			return false
		}
		if segs[0].kind == segDeep {
			return true
		}
		head, tail, _ := strings.Cut(dir, "/")
		if !segs[0].match(head) {
			return false
		}
		segs, dir = segs[1:], tail
	}
	return len(segs) > 0
}
