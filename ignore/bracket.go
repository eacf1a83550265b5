package ignore

import "strings"

// This file parses bracket expressions ("[a-z]", "[!0-9]", "[[:alpha:]]"),
// as glob(7) describes them and git accepts them.

// byteSet is a set of bytes, a bit per byte.
type byteSet [4]uint64

func (b *byteSet) add(c byte)      { b[c>>6] |= 1 << (c & 63) }
func (b *byteSet) has(c byte) bool { return b[c>>6]&(1<<(c&63)) != 0 }

// addRange adds lo through hi; nothing if hi < lo.
func (b *byteSet) addRange(lo, hi byte) {
	for c := int(lo); c <= int(hi); c++ {
		b.add(byte(c))
	}
}

func (b *byteSet) addSet(o *byteSet) {
	for i := range b {
		b[i] |= o[i]
	}
}

func (b *byteSet) invert() {
	for i := range b {
		b[i] = ^b[i]
	}
}

func (b *byteSet) remove(c byte) { b[c>>6] &^= 1 << (c & 63) }

// parseBracket parses the bracket expression that starts with the "[" at
// s[i] and returns the bytes it matches ("/" never among them, as a glob
// matched against a path never matches "/" but with "/") and the offset
// after its closing "]". Within the brackets:
//
//   - "!" or "^" first negates the set;
//   - "]" first (after any negation) is a plain "]";
//   - "[:name:]" adds a named class of the C locale (git's "space" is only
//     space, tab, newline and carriage return); an unknown name makes the
//     whole pattern fail, while "[:" with no ":]" before the next "]" is
//     plain text;
//   - "a-z" adds a range of bytes, a "-" first or last is plain, a range
//     from a higher to a lower byte adds only its first byte, and a "-"
//     right after a range or a class is plain;
//   - a backslash makes the next byte plain, range ends included.
//
// It fails if the expression is not closed.
func parseBracket(s string, i int) (*byteSet, int, bool) {
	set := new(byteSet)
	j := i + 1
	negate := j < len(s) && (s[j] == '!' || s[j] == '^')
	if negate {
		j++
	}
	for first := true; ; first = false {
		if j >= len(s) {
			return nil, 0, false
		}
		if s[j] == ']' && !first {
			j++
			break
		}
		if name, end, ok := className(s, j); ok {
			class, known := namedClasses[name]
			if !known {
				return nil, 0, false
			}
			set.addSet(&class)
			j = end
			continue
		}
		lo, next, ok := bracketByte(s, j)
		if !ok {
			return nil, 0, false
		}
		j = next
		if j+1 < len(s) && s[j] == '-' && s[j+1] != ']' {
			hi, next, ok := bracketByte(s, j+1)
			if !ok {
				return nil, 0, false
			}
			j = next
			set.add(lo)
			set.addRange(lo, hi)
			continue
		}
		set.add(lo)
	}
	if negate {
		set.invert()
	}
	set.remove('/')
	return set, j, true
}

// bracketByte returns the byte at s[j], or the one after a backslash there,
// and the offset after it.
func bracketByte(s string, j int) (byte, int, bool) {
	if s[j] != '\\' {
		return s[j], j + 1, true
	}
	if j+1 >= len(s) {
		return 0, 0, false
	}
	return s[j+1], j + 2, true
}

// className reports whether s[j:] starts a "[:name:]" class: "[:" whose next
// "]" follows a second ":". It returns the name and the offset after "]".
func className(s string, j int) (string, int, bool) {
	if !strings.HasPrefix(s[j:], "[:") {
		return "", 0, false
	}
	k := strings.IndexByte(s[j+2:], ']')
	if k < 1 || s[j+2+k-1] != ':' {
		return "", 0, false
	}
	return s[j+2 : j+2+k-1], j + 2 + k + 1, true
}

// namedClasses are the "[:name:]" classes, over ASCII as in the C locale.
var namedClasses = func() map[string]byteSet {
	pred := map[string]func(c byte) bool{
		"alnum":  func(c byte) bool { return isAlpha(c) || isDigit(c) },
		"alpha":  isAlpha,
		"blank":  func(c byte) bool { return c == ' ' || c == '\t' },
		"cntrl":  func(c byte) bool { return c < ' ' || c == 0x7f },
		"digit":  isDigit,
		"graph":  func(c byte) bool { return c > ' ' && c < 0x7f },
		"lower":  func(c byte) bool { return c >= 'a' && c <= 'z' },
		"print":  func(c byte) bool { return c >= ' ' && c < 0x7f },
		"punct":  func(c byte) bool { return c > ' ' && c < 0x7f && !isAlpha(c) && !isDigit(c) },
		"space":  func(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' },
		"upper":  func(c byte) bool { return c >= 'A' && c <= 'Z' },
		"xdigit": func(c byte) bool { return isDigit(c) || c|0x20 >= 'a' && c|0x20 <= 'f' },
	}
	classes := make(map[string]byteSet, len(pred))
	for name, in := range pred {
		var set byteSet
		for c := range 256 {
			if in(byte(c)) {
				set.add(byte(c))
			}
		}
		classes[name] = set
	}
	return classes
}()

func isAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }
