package ignore

import (
	"strings"
	"testing"
)

// FuzzMatch feeds arbitrary ignore files and paths to the parser and the
// matcher: nothing may panic, and a pattern without glob specials must
// match exactly its own text.
func FuzzMatch(f *testing.F) {
	for _, tt := range wildmatchCases {
		f.Add(tt.pattern, tt.text)
	}
	f.Add("a/**/b\n!c\n[!\n\\", "a/x/b")
	f.Fuzz(func(t *testing.T, ignore, p string) {
		l := parse([]byte(ignore), "", ".gitignore")
		name := p[strings.LastIndexByte(p, '/')+1:]
		l.match(p, name, true)
		l.match(p, name, false)
		wildmatch(ignore, p, true)
		wildmatch(ignore, p, false)
		if !strings.ContainsAny(ignore, "*?[\\") && wildmatch(ignore, p, true) != (ignore == p) {
			t.Errorf("literal %q vs %q: wildmatch = %v", ignore, p, !(ignore == p))
		}
	})
}
