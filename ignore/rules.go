package ignore

import (
	"bytes"
	"strings"
)

// This file reads the lines of an ignore file into patterns, following the
// PATTERN FORMAT section of gitignore(5), and finds the one that decides a
// path: within a file, the last that matches.

// Pattern flags.
const (
	flagNegative = 1 << iota // "!pattern": re-includes what it matches
	flagDirOnly              // "pattern/": matches directories only
	flagAnchored             // has a "/" before its end: matched against the path below base
)

// pattern is one line of an ignore file.
type pattern struct {
	flags  uint8
	glob   glob
	base   string // directory of the ignore file: "" or "a/b/"
	text   string // the line less trailing spaces, as git check-ignore -v shows it
	source string // where the line came from, as git check-ignore -v names it
	line   int    // 1-based line number in source
}

// list is the patterns of one ignore file. Literal patterns are indexed by
// the name or path they match, so that they cost one map lookup; the rest
// are tried from the last to the first.
type list struct {
	patterns []pattern
	byName   map[string][]int // literal basename patterns, by name
	byPath   map[string][]int // literal anchored patterns, by full path
	others   []int            // the rest, in file order
}

var utf8BOM = []byte("\xef\xbb\xbf")

// parse reads the ignore-file content data, read from source, whose
// patterns are relative to base ("" or "dir/"). A UTF-8 byte order mark at
// the start is skipped; lines may end in "\n" or "\r\n".
func parse(data []byte, base, source string) *list {
	l := &list{}
	text := string(bytes.TrimPrefix(data, utf8BOM))
	for n := 1; text != ""; n++ {
		var line string
		line, text, _ = strings.Cut(text, "\n")
		if p, ok := parseLine(line, base); ok {
			p.source, p.line = source, n
			l.add(p)
		}
	}
	return l
}

// parseLine reads one line. It reports false for a blank line, a comment,
// and a line that can match nothing ("!", "/", or a malformed glob).
func parseLine(line, base string) (pattern, bool) {
	if i := strings.IndexByte(line, 0); i >= 0 {
		line = line[:i] // git reads the line up to a NUL byte only
	}
	line = strings.TrimSuffix(line, "\r")
	if line == "" || line[0] == '#' {
		return pattern{}, false
	}
	p := pattern{text: trimSpaces(line), base: base}
	body := p.text
	if rest, ok := strings.CutPrefix(body, "!"); ok {
		p.flags |= flagNegative
		body = rest
	}
	if rest, ok := strings.CutSuffix(body, "/"); ok {
		p.flags |= flagDirOnly
		body = rest
	}
	if strings.Contains(body, "/") {
		p.flags |= flagAnchored
		body = strings.TrimPrefix(body, "/")
	}
	if body == "" {
		return pattern{}, false
	}
	g, ok := compileGlob(body)
	if !ok {
		return pattern{}, false
	}
	p.glob = g
	return p, true
}

// trimSpaces drops the trailing spaces of s that no backslash escapes;
// tabs stay.
func trimSpaces(s string) string {
	end := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ':
		case '\\':
			i++ // escapes the next byte, a space too
			end = min(i+1, len(s))
		default:
			end = i + 1
		}
	}
	return s[:end]
}

func (l *list) add(p pattern) {
	i := len(l.patterns)
	l.patterns = append(l.patterns, p)
	switch {
	case !p.glob.literal():
		l.others = append(l.others, i)
	case p.flags&flagAnchored == 0:
		if l.byName == nil {
			l.byName = make(map[string][]int)
		}
		l.byName[p.glob.head] = append(l.byName[p.glob.head], i)
	default:
		full := p.base + p.glob.head
		if l.byPath == nil {
			l.byPath = make(map[string][]int)
		}
		l.byPath[full] = append(l.byPath[full], i)
	}
}

// match returns the last pattern of l that matches path (slash-separated,
// relative to the matcher's directory; name is its last component), or
// nil.
func (l *list) match(path, name string, isDir bool) *pattern {
	if l == nil {
		return nil
	}
	best := l.lastFor(l.byName[name], -1, isDir)
	best = l.lastFor(l.byPath[path], best, isDir)
	for j := len(l.others) - 1; j >= 0 && l.others[j] > best; j-- {
		if i := l.others[j]; l.patterns[i].matches(path, name, isDir) {
			best = i
			break
		}
	}
	if best < 0 {
		return nil
	}
	return &l.patterns[best]
}

// lastFor returns the last index of idx (ascending indexes of literal
// patterns that match the path) whose pattern applies to isDir, if it is
// above best; else best.
func (l *list) lastFor(idx []int, best int, isDir bool) int {
	for j := len(idx) - 1; j >= 0 && idx[j] > best; j-- {
		if isDir || l.patterns[idx[j]].flags&flagDirOnly == 0 {
			return idx[j]
		}
	}
	return best
}

// matches reports whether p matches path (name being its last component).
func (p *pattern) matches(path, name string, isDir bool) bool {
	if p.flags&flagDirOnly != 0 && !isDir {
		return false
	}
	if p.flags&flagAnchored == 0 {
		return p.glob.matchName(name)
	}
	rest, ok := strings.CutPrefix(path, p.base)
	return ok && p.glob.match(rest)
}
