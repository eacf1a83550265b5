package patchtext

import (
	"strconv"
	"strings"
)

// QuotePath quotes a path the way git does with core.quotePath on: paths with control characters, quotes,
// backslashes or non-ASCII bytes are written C-style in double quotes with octal escapes.
func QuotePath(p string) string {
	plain := true
	for i := 0; i < len(p); i++ {
		if c := p[i]; c < 0x20 || c == '"' || c == '\\' || c >= 0x7f {
			plain = false
			break
		}
	}
	if plain {
		return p
	}
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(p); i++ {
		switch c := p[i]; c {
		case '"', '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case '\a', '\b', '\t', '\n', '\v', '\f', '\r':
			b.WriteByte('\\')
			b.WriteByte("abtnvfr"[strings.IndexByte("\a\b\t\n\v\f\r", c)])
		default:
			if c < 0x20 || c >= 0x7f {
				b.WriteByte('\\')
				b.WriteString(strconv.FormatInt(int64(c)|0o1000, 8)[1:]) // three octal digits, as git writes them
			} else {
				b.WriteByte(c)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// IsBinary applies git's rule: a NUL byte in the first 8000 bytes.
func IsBinary(data []byte) bool {
	if len(data) > 8000 {
		data = data[:8000]
	}
	return strings.IndexByte(string(data), 0) >= 0
}
