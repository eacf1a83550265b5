package ignore

import (
	"strings"
	"testing"
)

// FuzzMatch feeds arbitrary ignore files and paths to the parser and the
// matcher: nothing may panic, a pattern without glob specials matches
// exactly its own text, and every glob answers as refMatch does.
func FuzzMatch(f *testing.F) {
	for _, tt := range patternCases {
		f.Add(tt.line, tt.path)
	}
	f.Add("a/**/b\n!c\n[!\n\\", "a/x/b")
	f.Fuzz(func(t *testing.T, ignore, p string) {
		l := parse([]byte(ignore), "", ".gitignore")
		name := p[strings.LastIndexByte(p, '/')+1:]
		l.match(p, name, true)
		l.match(p, name, false)
		g, ok := compileGlob(ignore)
		if !ok {
			return
		}
		if !strings.ContainsAny(ignore, "*?[\\") && g.match(p) != (ignore == p) {
			t.Errorf("literal %q vs %q: match = %v", ignore, p, ignore != p)
		}
		if len(p) > 24 || len(g.prog) > 12 {
			return // refMatch is exponential
		}
		rest, ok := strings.CutPrefix(p, g.head)
		want := ok && refMatch(g.prog, rest)
		if g.match(p) != want {
			t.Errorf("glob %q vs %q: match = %v, refMatch %v", ignore, p, !want, want)
		}
		if ok && run(g.prog, rest) != want {
			t.Errorf("glob %q vs %q: run = %v, refMatch %v", ignore, p, !want, want)
		}
	})
}
