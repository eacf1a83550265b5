package trigram

import (
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func buildIndex(t *testing.T, files map[string]string) *Index {
	t.Helper()
	b := NewBuilder(0)
	names := slices.Sorted(maps.Keys(files))
	for _, name := range names {
		data := []byte(files[name])
		if err := b.Add(name, Trigrams(data, nil), int64(len(data)), false); err != nil {
			t.Fatal(err)
		}
	}
	return b.Seal()
}

func query(x *Index, pattern string, keep func(string) bool) (cands, skipped []string) {
	x.Query(Plan(pattern), keep, func(m Match) {
		switch {
		case m.Candidate:
			cands = append(cands, m.Path)
		case m.Skipped:
			skipped = append(skipped, m.Path)
		}
	})
	slices.Sort(cands)
	slices.Sort(skipped)
	return cands, skipped
}

func TestIndexQuery(t *testing.T) {
	x := buildIndex(t, map[string]string{
		"a.go":     "package main\nfunc main() {}\n",
		"b.go":     "package util\nfunc Helper() {}\n",
		"c.md":     "# Main Title\n",
		"d/e.txt":  "nothing here",
		"d/f.txt":  "HELPER in capitals",
		"short.go": "ab",
	})
	for _, tt := range []struct {
		pattern string
		want    []string
	}{
		{"func main", []string{"a.go"}},
		{"(?i)main", []string{"a.go", "c.md"}},
		{"main", []string{"a.go", "c.md"}}, // folded: c.md is a candidate the matcher will reject
		{"Helper|nothing", []string{"b.go", "d/e.txt", "d/f.txt"}},
		{"zzz", nil},
		{"a", []string{"a.go", "b.go", "c.md", "d/e.txt", "d/f.txt", "short.go"}},
	} {
		got, _ := query(x, tt.pattern, nil)
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%q: candidates mismatch (-want +got):\n%s", tt.pattern, diff)
		}
	}
	got, _ := query(x, "(?i)helper", func(p string) bool { return Within(p, "d") })
	if diff := cmp.Diff([]string{"d/f.txt"}, got); diff != "" {
		t.Errorf("keep: candidates mismatch (-want +got):\n%s", diff)
	}
}

func TestIndexUpdate(t *testing.T) {
	x := buildIndex(t, map[string]string{"a.go": "alpha beta", "b.go": "gamma delta", "c/d.go": "epsilon"})
	if err := x.Update("a.go", []byte("omega"), false); err != nil {
		t.Fatal(err)
	}
	if err := x.Update("new.go", []byte("alpha again"), false); err != nil {
		t.Fatal(err)
	}
	if err := x.Update("bin", nil, true); err != nil {
		t.Fatal(err)
	}
	x.Remove("b.go")
	for _, tt := range []struct {
		pattern string
		want    []string
	}{
		{"alpha", []string{"new.go"}},
		{"omega", []string{"a.go"}},
		{"gamma", nil},
		{"eps", []string{"c/d.go"}},
		{"omega|again", []string{"a.go", "new.go"}},
	} {
		got, _ := query(x, tt.pattern, nil)
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%q: candidates mismatch (-want +got):\n%s", tt.pattern, diff)
		}
	}
	if _, skipped := query(x, "x", nil); !slices.Equal(skipped, []string{"bin"}) {
		t.Errorf("skipped = %q, want [bin]", skipped)
	}
	x.RemoveUnder("c")
	st := x.Stats()
	if st.Files != 2 || st.Skipped != 1 || st.TextBytes != int64(len("omega")+len("alpha again")) {
		t.Errorf("stats after updates = %+v", st)
	}
}

// TestIndexSound checks, over random files and patterns, that every file with a match is a candidate.
func TestIndexSound(t *testing.T) {
	files := map[string]string{}
	texts := []string{"foo bar baz", "FooBar", "ſtraße", "\u212aelvin", "kelvin", "x\xffy", "multi\nline\ntext", "αβγδ", "tab\there", ""}
	for i := range 200 {
		files[string(rune('a'+i%26))+"/"+string(rune('a'+i/26))] = texts[i%len(texts)] + texts[(i*7)%len(texts)]
	}
	x := buildIndex(t, files)
	for _, pat := range []string{"foo", "(?i)FOO", "bar|elvin", "(?i)kelvin", "(?i)STRASSE", "(?i)straße", "ſtr", "x.y", `x\x{FFFD}y`,
		"line\ntext", "(?s)multi.line", "βγ", "(?i)ΑΒΓ", "tab\\there", "a[rz]", "^kelvin$", `\bbar\b`} {
		re := regexp.MustCompile(pat)
		got, _ := query(x, pat, nil)
		for name, text := range files {
			if re.MatchString(text) && !slices.Contains(got, name) {
				t.Errorf("%q matches %s (%q) but it is not a candidate", pat, name, text)
			}
		}
	}
}

func TestBuilderCap(t *testing.T) {
	b := NewBuilder(10 << 10)
	data := make([]byte, 0, 64<<10)
	for i := range 64 << 10 {
		data = append(data, byte(i*7919>>3))
	}
	err := b.Add("big", Trigrams(data, nil), int64(len(data)), false)
	if !errors.Is(err, ErrTooLarge) {
		t.Fatalf("Add past the cap: err = %v, want ErrTooLarge", err)
	}
	x := NewIndex(1 << 10)
	if err := x.Update("big", data, false); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("Update past the cap: err = %v, want ErrTooLarge", err)
	}
}

// TestTrigramsLarge checks the large-text path (a reused bit set) against the small one (sorting).
func TestTrigramsLarge(t *testing.T) {
	var text []byte
	for i := range 3 * smallText {
		text = append(text, "aB\xe2\x84\xaaz é\n\x00\xff"[(i*7)%14], byte(i*31))
	}
	large := Trigrams(text, nil)
	slices.Sort(large)
	if small := sortedTrigrams(text, nil); !slices.Equal(large, small) {
		t.Fatalf("large path: %d trigrams, small path: %d", len(large), len(small))
	}
	if again := Trigrams(text, nil); len(again) != len(large) { // the set was left empty
		t.Fatalf("second call: %d trigrams, want %d", len(again), len(large))
	}
}

// WalkMay visits the live files below a directory in walk order and says
// of each what May says, before and after updates change the index's files
// (which must renew the ids it keeps for walks).
func TestWalkMay(t *testing.T) {
	x := buildIndex(t, map[string]string{"a.go": "return 1", "b.go": "no match", "c/d.go": "return 2", "c/e.go": "other",
		"f/g.go": "return 3"})
	check := func(step string, q *Query) {
		t.Helper()
		c := x.Candidates(q)
		for _, dir := range []string{".", "c", "f"} {
			var paths, want, got []string
			x.mu.RLock()
			for _, p := range x.order {
				if Within(p, dir) && p != dir {
					paths = append(paths, p)
				}
			}
			x.mu.RUnlock()
			for _, p := range paths {
				want = append(want, fmt.Sprintf("%s %v", p, c.May(p)))
			}
			if err := c.WalkMay(dir, func(p string, may bool) error {
				got = append(got, fmt.Sprintf("%s %v", p, may))
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got); diff != "" || dir == "." && len(want) == 0 {
				t.Errorf("%s, %s: WalkMay differs from the walk order and May (-want +got):\n%s", step, dir, diff)
			}
		}
	}
	q := Plan("return")
	check("built", q)
	check("built, again", q) // the ids kept by the first walk
	if err := x.Update("b.go", []byte("return 4"), false); err != nil {
		t.Fatal(err)
	}
	if err := x.Update("c/aa.go", []byte("return 5"), false); err != nil { // a path between others
		t.Fatal(err)
	}
	x.Remove("a.go")
	check("updated", q)
	x.RemoveUnder("c")
	check("removed c", q)
}
