package linediff

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// apply rebuilds b from a and cs, failing when the changes are out of order, overlap, or keep lines of a
// that differ from the lines of b they stand for.
func apply(t testing.TB, a, b []string, cs []Change) []string {
	t.Helper()
	out := []string{}
	ai, bi := 0, 0
	for _, c := range cs {
		if c.A0 < ai || c.B0 < bi || c.A0 > c.A1 || c.B0 > c.B1 || c.A1 > len(a) || c.B1 > len(b) ||
			c.A0-ai != c.B0-bi || c.A0 == c.A1 && c.B0 == c.B1 {
			t.Fatalf("change %+v is empty, out of order or misaligned (at a %d, b %d; lengths %d, %d)", c, ai, bi, len(a), len(b))
		}
		for ; ai < c.A0; ai, bi = ai+1, bi+1 {
			if a[ai] != b[bi] {
				t.Fatalf("kept line a[%d]=%q differs from b[%d]=%q", ai, a[ai], bi, b[bi])
			}
			out = append(out, a[ai])
		}
		out = append(out, b[c.B0:c.B1]...)
		ai, bi = c.A1, c.B1
	}
	if len(a)-ai != len(b)-bi {
		t.Fatalf("after the last change, %d lines of a are left and %d of b", len(a)-ai, len(b)-bi)
	}
	return append(out, a[ai:]...)
}

// edits counts the lines cs deletes and inserts.
func edits(cs []Change) int {
	n := 0
	for _, c := range cs {
		n += c.A1 - c.A0 + c.B1 - c.B0
	}
	return n
}

// shortest is the length of a shortest edit script, from the longest common subsequence by the textbook
// O(NM) table.
func shortest(a, b []string) int {
	row := make([]int, len(b)+1)
	for i := range a {
		diag := 0
		for j := range b {
			up := row[j+1]
			switch {
			case a[i] == b[j]:
				row[j+1] = diag + 1
			case row[j] > row[j+1]:
				row[j+1] = row[j]
			}
			diag = up
		}
	}
	return len(a) + len(b) - 2*row[len(b)]
}

func randomLines(r *rand.Rand, alphabet []string, n int) []string {
	l := make([]string, n)
	for i := range l {
		l[i] = alphabet[r.IntN(len(alphabet))]
	}
	return l
}

// mutate returns a copy of a with a few lines replaced, inserted or deleted.
func mutate(r *rand.Rand, alphabet, a []string) []string {
	b := append([]string(nil), a...)
	for range r.IntN(4) {
		i := r.IntN(len(b) + 1)
		switch r.IntN(3) {
		case 0:
			if i < len(b) {
				b[i] = alphabet[r.IntN(len(alphabet))]
			}
		case 1:
			b = append(b[:i], append(randomLines(r, alphabet, 1+r.IntN(4)), b[i:]...)...)
		default:
			b = append(b[:i], b[min(len(b), i+1+r.IntN(4)):]...)
		}
	}
	return b
}

func TestDiffIsShortest(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	alphabets := [][]string{
		{"a", "b"},
		{"a", "b", "c", "d"},
		{"}", "", "\tx()", "func a() {", "b", "c", "  d", "e"},
	}
	for i := range 5000 {
		alpha := alphabets[i%len(alphabets)]
		a := randomLines(r, alpha, r.IntN(40))
		var b []string
		if i%2 == 0 {
			b = randomLines(r, alpha, r.IntN(40))
		} else {
			b = mutate(r, alpha, a)
		}
		cs := Diff(a, b)
		if diff := cmp.Diff(b, apply(t, a, b, cs), cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("case %d: a=%q b=%q: rebuilt b mismatch (-want +got):\n%s", i, a, b, diff)
		}
		// Common lines (many copies on the other side) stranded among unmatched ones are left out of the
		// search as git leaves them out; each can lengthen the script by two lines. Without such lines the
		// script is shortest.
		slack := 2 * (commonLines(a, b) + commonLines(b, a))
		if got, want := edits(cs), shortest(a, b); got < want || got > want+slack {
			t.Fatalf("case %d: a=%q b=%q: %d lines changed, shortest is %d (slack %d): %+v", i, a, b, got, want, slack, cs)
		}
	}
}

// commonLines counts the lines of x with at least manyMatches(len(x)) copies in y.
func commonLines(x, y []string) int {
	copies := map[string]int{}
	for _, l := range y {
		copies[l]++
	}
	n := 0
	for _, l := range x {
		if copies[l] >= manyMatches(len(x)) {
			n++
		}
	}
	return n
}

func TestDiffWithinBudgetIsCorrect(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	alpha := []string{"a", "b", "c"}
	coarser := 0
	for i := range 500 {
		a := randomLines(r, alpha, 50+r.IntN(200))
		b := randomLines(r, alpha, 50+r.IntN(200))
		d := Differ{Budget: 1 + r.IntN(300)}
		cs := d.Diff(d.Text(a), d.Text(b))
		if diff := cmp.Diff(b, apply(t, a, b, cs), cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("case %d (budget %d): rebuilt b mismatch (-want +got):\n%s", i, d.Budget, diff)
		}
		if edits(cs) > shortest(a, b) {
			coarser++
		}
	}
	if coarser == 0 {
		t.Error("no diff got coarser for want of budget: the budget is not applied")
	}
}

func TestDiffPlacesGroups(t *testing.T) {
	for _, tt := range []struct {
		name string
		a, b string
		want []Change
	}{
		{"equal", "a\nb", "a\nb", nil},
		{"empty to text", "", "a\nb", []Change{{0, 0, 0, 2}}},
		{"text to empty", "a\nb", "", []Change{{0, 2, 0, 0}}},
		{"replacement", "a\nb\nc", "a\nB\nc", []Change{{1, 2, 1, 2}}},
		{"insertion slid down", "a\nx\nb", "a\nx\nx\nb", []Change{{2, 2, 2, 3}}},
		{"deletion slid down", "a\nx\nx\nx\nb", "a\nx\nb", []Change{{2, 4, 2, 2}}},
		{"deletion joins the replacement next to it", "a\nx\nx\nB\nc", "a\nx\nb\nc", []Change{{2, 4, 2, 3}}},
		{"duplicate last line added at the end", "a\n", "a\na\n", []Change{{1, 1, 1, 2}}},
		{"duplicate first line added after it", "a\nb\n", "a\na\nb\n", []Change{{1, 1, 1, 2}}},
		{
			"function inserted between functions: the group ends with its blank line",
			"func a() {\n\tx()\n}\n\nfunc c() {\n\tx()\n}\n",
			"func a() {\n\tx()\n}\n\nfunc b() {\n\tx()\n}\n\nfunc c() {\n\tx()\n}\n",
			[]Change{{4, 4, 4, 8}},
		},
		{
			"paragraph deleted: the group starts after a blank line",
			"a\n\nb\n\nc\n", "a\n\nc\n",
			[]Change{{2, 4, 2, 2}},
		},
		{
			"block duplicated: the group does not part a header from its body",
			"x\n\t{\n\t\tp()\n\t}\ny\n", "x\n\t{\n\t\tp()\n\t}\n\t{\n\t\tp()\n\t}\ny\n",
			[]Change{{4, 4, 4, 7}},
		},
		{
			"block body grows: the new lines stay inside the block",
			"if a {\n\tx()\n}\nif b {\n\tx()\n}\n", "if a {\n\tx()\n}\nif b {\n\tx()\n\tx()\n}\n",
			[]Change{{5, 5, 5, 6}},
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := Diff(lines(tt.a), lines(tt.b))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("changes mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// lines splits s after each newline; the last line may lack one.
func lines(s string) []string {
	l := strings.SplitAfter(s, "\n")
	if l[len(l)-1] == "" {
		l = l[:len(l)-1]
	}
	return l
}

func FuzzDiff(f *testing.F) {
	f.Add("a\nb\nc\n", "a\nc\nb\n")
	f.Add("}\n\n}\n", "\n}\n}\n\n")
	f.Add("", "x")
	f.Fuzz(func(t *testing.T, x, y string) {
		a, b := lines(x), lines(y)
		if len(a) > 300 || len(b) > 300 {
			return
		}
		cs := Diff(a, b)
		if diff := cmp.Diff(b, apply(t, a, b, cs), cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("rebuilt b mismatch (-want +got):\n%s", diff)
		}
		if got, want := edits(cs), shortest(a, b); got != want {
			t.Fatalf("%d lines changed, shortest is %d", got, want)
		}
	})
}

// TestDiffOfRearrangedTextsIsNearShortest diffs texts whose shortest script needs more rounds than a
// search gets, and more work than the budget allows a search run to the end: the script must stay
// correct and within a tenth of the shortest.
func TestDiffOfRearrangedTextsIsNearShortest(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	alpha := []string{"}\n", "\n", "\tx()\n", "a\n", "b\n", "c\n", "d\n", "e\n"}
	a, b := randomLines(r, alpha, 8000), randomLines(r, alpha, 8000)
	d := Differ{Budget: 1 << 22}
	cs := d.Diff(d.Text(a), d.Text(b))
	if diff := cmp.Diff(b, apply(t, a, b, cs), cmpopts.EquateEmpty()); diff != "" {
		t.Fatalf("rebuilt b mismatch (-want +got):\n%s", diff)
	}
	if got, best := edits(cs), shortest(a, b); got > best+best/10 {
		t.Errorf("%d lines changed, more than a tenth over the shortest %d", got, best)
	}
}

func BenchmarkDiff(b *testing.B) {
	r := rand.New(rand.NewPCG(7, 8))
	alpha := make([]string, 500)
	for i := range alpha {
		alpha[i] = "line " + strings.Repeat("x", i%40) + "\n"
	}
	for _, bb := range []struct {
		name string
		a, b []string
	}{
		{"10k lines, few edits", nil, nil},
		{"10k lines, unrelated", randomLines(r, alpha[:8], 10000), randomLines(r, alpha[:8], 10000)},
	} {
		if bb.a == nil {
			bb.a = randomLines(r, alpha, 10000)
			bb.b = bb.a
			for range 10 {
				bb.b = mutate(r, alpha, bb.b)
			}
		}
		b.Run(bb.name, func(b *testing.B) {
			for b.Loop() {
				Diff(bb.a, bb.b)
			}
		})
	}
}
