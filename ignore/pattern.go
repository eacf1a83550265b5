package ignore

import (
	"bytes"
	"strings"
)

// Pattern flags, as in git's dir.h.
const (
	flagNegative  = 1 << iota // "!pattern": re-includes
	flagMustBeDir             // "pattern/": matches directories only
	flagNoDir                 // no "/" in the pattern: matched against the basename
	flagEndsWith              // "*literal": a suffix test is enough
)

// pattern is one compiled line of an ignore file.
type pattern struct {
	text   string // without "!" and the trailing "/"; a leading "/" is kept
	prefix int    // length of the leading part of text free of glob specials
	flags  uint8
	base   string // directory of the ignore file: "" or "a/b/"
	source string // where the line came from, as git -v names it
	line   int    // 1-based line number in source
}

// list is the compiled content of one ignore file. Literal patterns are
// indexed by name so that matching costs one map lookup for them; the rest
// are tried from last to first, as git does.
type list struct {
	patterns []pattern
	byName   map[string][]int // flagNoDir literals, by basename
	byPath   map[string][]int // anchored literals, by full slash path
	others   []int            // everything else, in file order
}

// parse compiles the ignore-file content data read from source, whose
// patterns are relative to base ("" or "dir/").
func parse(data []byte, base, source string) *list {
	l := &list{}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")) // git skips a UTF-8 BOM
	lineNo := 0
	for len(data) > 0 {
		lineNo++
		var line []byte
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			line, data = data, nil // git appends the missing newline
		}
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		line = bytes.TrimSuffix(line, []byte("\r"))
		if i := bytes.IndexByte(line, 0); i >= 0 {
			line = line[:i] // C strings end at NUL
		}
		if p, ok := compile(trimTrailingSpaces(string(line)), base); ok {
			p.source, p.line = source, lineNo
			l.add(p)
		}
	}
	return l
}

// trimTrailingSpaces drops unescaped trailing spaces (not tabs), like
// git's trim_trailing_spaces.
func trimTrailingSpaces(s string) string {
	last := -1
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ':
			if last < 0 {
				last = i
			}
		case '\\':
			i++
			if i >= len(s) {
				return s
			}
			last = -1
		default:
			last = -1
		}
	}
	if last >= 0 {
		return s[:last]
	}
	return s
}

// compile parses one line, as git's parse_path_pattern does. Lines that
// can never match (empty after "!" and "/" are stripped) are dropped.
func compile(s, base string) (pattern, bool) {
	var p pattern
	if strings.HasPrefix(s, "!") {
		p.flags |= flagNegative
		s = s[1:]
	}
	if strings.HasSuffix(s, "/") {
		p.flags |= flagMustBeDir
		s = s[:len(s)-1]
	}
	if s == "" {
		return p, false
	}
	if !strings.Contains(s, "/") {
		p.flags |= flagNoDir
	}
	p.prefix = simpleLength(s)
	if s[0] == '*' && simpleLength(s[1:]) == len(s)-1 {
		p.flags |= flagEndsWith
	}
	p.text, p.base = s, base
	return p, true
}

func simpleLength(s string) int {
	for i := 0; i < len(s); i++ {
		if isGlobSpecial(s[i]) {
			return i
		}
	}
	return len(s)
}

func (l *list) add(p pattern) {
	i := len(l.patterns)
	l.patterns = append(l.patterns, p)
	switch lit := p.prefix == len(p.text); {
	case lit && p.flags&flagNoDir != 0:
		if l.byName == nil {
			l.byName = make(map[string][]int)
		}
		l.byName[p.text] = append(l.byName[p.text], i)
	case lit:
		full := p.base + strings.TrimPrefix(p.text, "/")
		if l.byPath == nil {
			l.byPath = make(map[string][]int)
		}
		l.byPath[full] = append(l.byPath[full], i)
	default:
		l.others = append(l.others, i)
	}
}
