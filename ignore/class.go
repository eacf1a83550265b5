package ignore

// class matches tc against the bracket expression that starts at p[pi]
// ("["). It returns whether tc is in the set and the index of the closing
// "]", or next < 0 when the expression is malformed, which makes git abort
// the whole match. Supported: "!" and "^" negation, a leading "]" as a
// literal, ranges, backslash escapes and [:class:] names.
func class(p string, pi int, tc byte) (matched bool, next int) {
	pi++
	pc := at(p, pi)
	negated := pc == '!' || pc == '^'
	if negated {
		pi++
		pc = at(p, pi)
	}
	var prev byte
	for {
		if pc == 0 {
			return false, -1
		}
		switch {
		case pc == '\\':
			pi++
			pc = at(p, pi)
			if pc == 0 {
				return false, -1
			}
			if tc == pc {
				matched = true
			}
		case pc == '-' && prev != 0 && at(p, pi+1) != 0 && at(p, pi+1) != ']':
			var in bool
			if in, pi = classRange(p, pi, prev, tc); pi < 0 {
				return false, -1
			}
			matched = matched || in
			pc = 0 // a range cannot start another range
		case pc == '[' && at(p, pi+1) == ':':
			var ok, valid bool
			ok, valid, pi = namedClass(p, pi, tc)
			if !valid {
				return false, -1
			}
			if ok {
				matched = true
			}
			pc = at(p, pi)
			if pc == '[' { // not a [:name:] after all: a literal "["
				break
			}
			pc = 0
		default:
			if tc == pc {
				matched = true
			}
		}
		prev = pc
		pi++
		pc = at(p, pi)
		if pc == ']' {
			break
		}
	}
	return matched != negated, pi
}

// classRange handles the range "prev-c" whose "-" is at p[pi]: whether tc
// lies in it, and the index of its last byte (< 0 if malformed).
func classRange(p string, pi int, prev, tc byte) (bool, int) {
	pi++
	hi := at(p, pi)
	if hi == '\\' {
		pi++
		if hi = at(p, pi); hi == 0 {
			return false, -1
		}
	}
	return tc >= prev && tc <= hi, pi
}

// namedClass handles "[:name:]" at p[pi]. It returns whether tc belongs to
// the class, whether the expression is well formed, and the index of its last
// byte. An unterminated "[:" is an ordinary "[" (index pi, ok if tc is "[").
func namedClass(p string, pi int, tc byte) (ok, valid bool, end int) {
	s := pi + 2
	q := s
	for q < len(p) && p[q] != ']' {
		q++
	}
	if q >= len(p) {
		return false, false, q
	}
	if q-s-1 < 0 || p[q-1] != ':' {
		return tc == '[', true, pi
	}
	in, known := classes[p[s:q-1]]
	if !known {
		return false, false, q
	}
	return in(tc), true, q
}

// classes follows git's sane_ctype.h: ASCII only, so bytes >= 0x80 are in
// no class.
var classes = map[string]func(c byte) bool{
	"alnum":  func(c byte) bool { return isAlpha(c) || isDigit(c) },
	"alpha":  isAlpha,
	"blank":  func(c byte) bool { return c == ' ' || c == '\t' },
	"cntrl":  func(c byte) bool { return c < 0x20 || c == 0x7f },
	"digit":  isDigit,
	"graph":  func(c byte) bool { return c > 0x20 && c < 0x7f },
	"lower":  func(c byte) bool { return c >= 'a' && c <= 'z' },
	"print":  func(c byte) bool { return c >= 0x20 && c < 0x7f },
	"punct":  isPunct,
	"space":  func(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' },
	"upper":  func(c byte) bool { return c >= 'A' && c <= 'Z' },
	"xdigit": func(c byte) bool { return isDigit(c) || (c|0x20 >= 'a' && c|0x20 <= 'f') },
}

func isAlpha(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isPunct(c byte) bool {
	return c > 0x20 && c < 0x7f && !isAlpha(c) && !isDigit(c)
}
