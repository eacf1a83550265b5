package grep

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestShapeMatchesRegexp compares the lines a shaped pattern matches
// (no automaton) with Go's regexp applied to each line, over random text
// dense in the literals and their edges.
func TestShapeMatchesRegexp(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	pieces := []string{"{", "}", "\n", " ", "_t", "ab", "é", "static inline", "#include <", "x", "\r", "ine"}
	for _, expr := range []string{`\{$`, `^#include <`, `\bstatic inline\b`, `^\}$`, `\Bine\b`, `_t\b`, `\bab`, `é\b`, `ab\B`, `^x`} {
		p := mustCompile(t, expr, Options{})
		if p.shape == nil {
			t.Fatalf("%s: no shape", expr)
		}
		lineRE := regexp.MustCompile(expr)
		for round := range 200 {
			var b strings.Builder
			for range rng.IntN(60) {
				b.WriteString(pieces[rng.IntN(len(pieces))])
			}
			text := b.String()
			var want []int
			for i, line := range strings.Split(text, "\n") {
				if lineRE.MatchString(line) && !(i > 0 && line == "" && strings.HasSuffix(text, "\n") && i == strings.Count(text, "\n")) {
					want = append(want, i+1)
				}
			}
			s := &scanner{p: p, limit: 1 << 30}
			h := Hits{}
			s.scan([]byte(text), &h)
			var got []int
			for _, l := range h.Lines {
				got = append(got, l.N)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("%s, round %d, in %q: lines mismatch (-want +got):\n%s", expr, round, text, diff)
			}
		}
	}
}

func TestNoShape(t *testing.T) {
	for _, expr := range []string{`(?i)\bab\b`, `ab`, `\bab|cd\b`, `^a+$`, `a\b\b`} {
		if p := mustCompile(t, expr, Options{}); p.shape != nil {
			t.Errorf("%s: shape %+v, want none", expr, p.shape)
		}
	}
	if p := mustCompile(t, `ab`, Options{Word: true}); p.shape != nil {
		t.Errorf("word ab: shape %+v, want none", p.shape)
	}
}
