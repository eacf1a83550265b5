package trigram

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

func TestPlan(t *testing.T) {
	for _, tt := range []struct{ pattern, want string }{
		{"hello", `"ell" & "hel" & "llo"`},
		{"(?i)HeLLo", `"ell" & "hel" & "llo"`},
		{"Hello", `"ell" & "hel" & "llo"`}, // the index folds case: a case-sensitive query is looser, still sound
		{"abc|def", `"abc" | "def"`},
		{"a[bc]de", `("abd" & "bde") | ("acd" & "cde")`},
		{"(abc)?def", `"def" | ("abc" & "bcd" & "cde" & "def")`},
		{`\bTODO\b`, `"odo" & "tod"`},
		{"^func main$", `" ma" & "ain" & "c m" & "fun" & "mai" & "nc " & "unc"`},
		{"x", "+"},
		{"ab", "+"},
		{"[a-z]+", "+"},
		{"a.b.c", "+"},
		{"(?s)abc.*", `"abc"`},
		{"abc|.", "+"},
		{"abc|(?:)", "+"},
		{"abcd{3}", `"abc" & "bcd" & "cdd" & "ddd"`},
		{"(abc)+", `"abc"`},
		{"(abc)*", "+"},
		{`\x{FFFD}abc`, `"abc"`}, // U+FFFD also matches invalid bytes
		{`[^a]bcd`, `"bcd"`},     // a negated class is any character
		{"(?i)k12", `"k12" | ("\x84\xaa1" & "\xaa12" & "\xe2\x84\xaa")`}, // the Kelvin sign folds to k
		{"中文", `"\xad\xe6\x96" & "\xb8\xad\xe6" & "\xe4\xb8\xad" & "\xe6\x96\x87"`},
		{"[", "+"}, // unparsable
		{`a\z`, "+"},
		{"abc.*def", `"abc" & ("def" | ("abc" & "bcd" & "cde" & "def"))`},
	} {
		t.Run(tt.pattern, func(t *testing.T) {
			if got := Plan(tt.pattern).String(); got != tt.want {
				t.Errorf("Plan(%q) = %s, want %s", tt.pattern, got, tt.want)
			}
		})
	}
}

// TestPlanSound checks the one property that matters: a text holding a match satisfies the query.
// Patterns are built at random from literals, classes, alternations and repetitions over a small
// alphabet (mixed case, a multi-byte letter, the Kelvin sign), so that matches are frequent.
func TestPlanSound(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	checked, matched := 0, 0
	for range 4000 {
		pat := randomPattern(r, 3)
		if r.IntN(3) == 0 {
			pat = "(?i)" + pat
		}
		re, err := regexp.Compile(pat)
		if err != nil {
			continue
		}
		q := Plan(re.String())
		for range 20 {
			text := randomText(r)
			checked++
			if !re.MatchString(text) {
				continue
			}
			matched++
			if !satisfies(q, Trigrams([]byte(text), nil)) {
				t.Fatalf("pattern %q matches %q but the text fails its query %s", pat, text, q)
			}
		}
	}
	if matched < checked/50 {
		t.Fatalf("only %d of %d texts matched: the test checks too little", matched, checked)
	}
}

var alphabet = []string{"a", "b", "c", "A", "B", "é", "É", "k", "K", "\u212a", "s", "ſ", "\n", " ", "\xff"}

func randomText(r *rand.Rand) string {
	var b strings.Builder
	for range r.IntN(40) {
		b.WriteString(alphabet[r.IntN(len(alphabet))])
	}
	return b.String()
}

func randomPattern(r *rand.Rand, depth int) string {
	if depth == 0 {
		return randomAtom(r)
	}
	switch r.IntN(8) {
	case 0:
		return randomPattern(r, depth-1) + "|" + randomPattern(r, depth-1)
	case 1:
		return "(" + randomPattern(r, depth-1) + ")" + []string{"*", "+", "?", "{2}", "{1,3}", "{0,2}"}[r.IntN(6)]
	case 2:
		return "(?:" + randomPattern(r, depth-1) + ")"
	default:
		return randomPattern(r, depth-1) + randomPattern(r, depth-1)
	}
}

func randomAtom(r *rand.Rand) string {
	atoms := []string{"a", "b", "c", "A", "é", "k", "s", "ab", "abc", "bca", "[ab]", "[a-c]", "[^a]", ".", `\b`, "^", "$",
		`\x{FFFD}`, "[é-ê]", `\n`, `\s`, `\w`, "(?s:.)", "[kK]", "(?i:k)", "(?i:s)", "(?i:é)"}
	return atoms[r.IntN(len(atoms))]
}

// satisfies evaluates q on the distinct trigrams of one text.
func satisfies(q *Query, grams []Trigram) bool {
	has := map[Trigram]bool{}
	for _, g := range grams {
		has[g] = true
	}
	var eval func(q *Query) bool
	eval = func(q *Query) bool {
		switch q.Op {
		case OpAll:
			return true
		case OpNone:
			return false
		case OpAnd:
			for _, t := range q.Trigrams {
				if !has[t] {
					return false
				}
			}
			for _, s := range q.Sub {
				if !eval(s) {
					return false
				}
			}
			return true
		}
		for _, t := range q.Trigrams {
			if has[t] {
				return true
			}
		}
		for _, s := range q.Sub {
			if eval(s) {
				return true
			}
		}
		return false
	}
	return eval(q)
}
