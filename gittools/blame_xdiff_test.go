package gittools

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// applyChanges rebuilds b from a and the changes, checking that the lines left alone are equal.
func applyChanges(t *testing.T, a, b []string, cs []lineChange) []string {
	t.Helper()
	var out []string
	ai, bi := 0, 0
	for _, c := range cs {
		if c.aStart < ai || c.aStart-ai != c.bStart-bi {
			t.Fatalf("change %+v out of order or misaligned (at a %d, b %d)", c, ai, bi)
		}
		for ; ai < c.aStart; ai, bi = ai+1, bi+1 {
			if a[ai] != b[bi] {
				t.Fatalf("unchanged line a[%d]=%q differs from b[%d]=%q", ai, a[ai], bi, b[bi])
			}
			out = append(out, a[ai])
		}
		out = append(out, b[c.bStart:c.bEnd]...)
		ai, bi = c.aEnd, c.bEnd
	}
	return append(out, a[ai:]...)
}

func TestXdiffProducesValidEdits(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	words := []string{"}\n", "\n", "\tx()\n", "func a() {\n", "b\n", "c\n", "  d\n", "e"}
	gen := func() []string {
		l := make([]string, r.IntN(60))
		for i := range l {
			l[i] = words[r.IntN(len(words)-1)]
		}
		return l
	}
	for i := range 2000 {
		a, b := gen(), gen()
		if i%3 == 0 && len(b) > 0 {
			b[len(b)-1] = "e"
		}
		var lc lineClasses
		ca, cb := lc.classify(a), lc.classify(b)
		got := applyChanges(t, a, b, blameDiff(&blobText{a, ca}, &blobText{b, cb}, &lc))
		if diff := cmp.Diff(strings.Join(b, ""), strings.Join(got, "")); diff != "" {
			t.Fatalf("case %d: a=%q b=%q: rebuilt b mismatch (-want +got):\n%s", i, strings.Join(a, ""), strings.Join(b, ""), diff)
		}
	}
}

func TestCommonTailLines(t *testing.T) {
	long := strings.Repeat("0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcde\n", 40) // 2,560 bytes
	tail := strings.Split(strings.TrimSuffix(long, "\n"), "\n")
	for i := range tail {
		tail[i] += "\n"
	}
	for _, tt := range []struct {
		name string
		a, b []string
		want int
	}{
		{"short", []string{"x\n", "y\n"}, []string{"z\n", "y\n"}, 0},
		{"two blocks", append([]string{"x\n"}, tail...), append([]string{"z\n"}, tail...), 31},
		{"no final newline", []string{"x\n", strings.Repeat("q", 3000)}, []string{"z\n", strings.Repeat("q", 3000)}, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := commonTailLines(tt.a, tt.b); got != tt.want {
				t.Errorf("commonTailLines = %d, want %d", got, tt.want)
			}
		})
	}
}

// TestXdiffMatchesGitDiff compares the changes with `git diff --no-index -U0` (same xdiff, flags and tail
// trimming as blame's diff) on random texts full of ambiguous lines.
func TestXdiffMatchesGitDiff(t *testing.T) {
	f := newFixture(t)
	r := rand.New(rand.NewPCG(3, 4))
	words := []string{"}\n", "\n", "\tx()\n", "\t\ty()\n", "func a() {\n", "b\n", "c\n"}
	gen := func() []string {
		l := make([]string, 5+r.IntN(300))
		for i := range l {
			l[i] = words[r.IntN(len(words))]
		}
		return l
	}
	for i := range 150 {
		a, b := gen(), gen()
		if i%2 == 0 {
			b = append([]string(nil), a...)
			for range 1 + r.IntN(6) {
				at := r.IntN(len(b))
				switch r.IntN(3) {
				case 0:
					b = append(b[:at], b[at+1:]...)
				case 1:
					b = append(b[:at], append([]string{words[r.IntN(len(words))]}, b[at:]...)...)
				default:
					b[at] = words[r.IntN(len(words))]
				}
			}
		}
		f.write("a.txt", strings.Join(a, ""), "b.txt", strings.Join(b, ""))
		var lc lineClasses
		got := blameDiff(&blobText{a, lc.classify(a)}, &blobText{b, lc.classify(b)}, &lc)
		cmd := gitCmd(f, "diff", "--no-index", "-U0", "--no-color", "a.txt", "b.txt")
		out, _ := cmd.Output() // exit status 1: the files differ
		if diff := cmp.Diff(hunkChanges(t, string(out)), got, cmp.AllowUnexported(lineChange{})); diff != "" {
			t.Fatalf("case %d: a=%q b=%q: changes mismatch (-git +grove):\n%s", i, strings.Join(a, ""), strings.Join(b, ""), diff)
		}
	}
}

// hunkChanges reads the "@@ -a,n +b,m @@" headers of a -U0 diff.
func hunkChanges(t *testing.T, patch string) []lineChange {
	var out []lineChange
	for _, l := range strings.Split(patch, "\n") {
		if !strings.HasPrefix(l, "@@ ") {
			continue
		}
		var a, n, b, m int
		f := strings.Fields(l)
		parseRange(t, f[1][1:], &a, &n)
		parseRange(t, f[2][1:], &b, &m)
		if n > 0 {
			a--
		}
		if m > 0 {
			b--
		}
		out = append(out, lineChange{a, a + n, b, b + m})
	}
	return out
}

func parseRange(t *testing.T, s string, start, n *int) {
	t.Helper()
	first, count, ok := strings.Cut(s, ",")
	var err error
	if *start, err = strconv.Atoi(first); err != nil {
		t.Fatal(err)
	}
	*n = 1
	if ok {
		if *n, err = strconv.Atoi(count); err != nil {
			t.Fatal(err)
		}
	}
}
