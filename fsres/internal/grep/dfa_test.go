package grep

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// The line DFA agrees with Go's regexp on every line.
func TestDFAMatchesRegexp(t *testing.T) {
	patterns := []string{
		`\bfoo\b`, `\Bfoo`, `foo\B`, `^foo`, `foo$`, `^$`, `^`, `$`, `(?i)straße`, `(?i)k`, `[^a-z]+`, `a*b*c*$`,
		`\w+\s\w+`, `(a|ab)(c|bcd)`, `é+`, `[é-ü]{2}`, `.{3,}x`, `x*`, `\b`, `(?i)ǅ`, `[[:upper:]]{2}\b`, `\d+\.\d+`,
		`(?:^|\W)free(?:$|\W)`, `\A\s`, `\s\z`,
	}
	alphabet := []string{"a", "b", "c", "x", "foo", " ", "_", "é", "ü", "K", "\u212a", "ß", "SS", "1", ".", "\r", "\t", "ǅ", "日"}
	r := rand.New(rand.NewPCG(3, 4))
	lines := []string{""}
	for range 2000 {
		var b strings.Builder
		for range r.IntN(12) {
			b.WriteString(alphabet[r.IntN(len(alphabet))])
		}
		lines = append(lines, b.String())
	}
	for _, expr := range patterns {
		p := mustCompile(t, expr, Options{})
		d := newDFA(p.prog)
		for _, line := range lines {
			if got, want := d.matchLine([]byte(line)), p.re.MatchString(line); got != want {
				t.Errorf("%q on %q: DFA %v, regexp %v", expr, line, got, want)
			}
		}
	}
}

// A cache past maxStates is dropped and the answers stay right.
func TestDFAStateBound(t *testing.T) {
	p := mustCompile(t, `a[ab]{12}c`, Options{}) // needs about 2^12 states
	d := newDFA(p.prog)
	r := rand.New(rand.NewPCG(5, 6))
	for range 3000 {
		var b strings.Builder
		for range 40 {
			b.WriteByte("abc"[r.IntN(3)])
		}
		line := b.String()
		if got, want := d.matchLine([]byte(line)), p.re.MatchString(line); got != want {
			t.Fatalf("%q: DFA %v, regexp %v", line, got, want)
		}
		if len(d.states) > maxStates {
			t.Fatalf("%d states cached, bound %d", len(d.states), maxStates)
		}
	}
}
