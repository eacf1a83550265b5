package ignore

import (
	"fmt"
	"math/rand/v2"
	"path"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// patternCases are single lines of a top-level .gitignore against single
// paths, with what gitignore(5) and glob(7) say (and, where they are
// silent, what git check-ignore answers). The pattern alone decides: a
// path below a matching directory is not counted as matched here.
var patternCases = []struct {
	line, path string
	dir, want  bool
}{
	// Plain names match the basename at any depth.
	{"foo", "foo", false, true},
	{"foo", "a/b/foo", false, true},
	{"foo", "foo", true, true},
	{"foo", "foobar", false, false},
	{"foo", "a/foo/b", false, false},
	// A trailing "/" matches directories only.
	{"foo/", "foo", true, true},
	{"foo/", "a/foo", true, true},
	{"foo/", "foo", false, false},
	// A "/" at the start or in the middle anchors the pattern.
	{"/foo", "foo", false, true},
	{"/foo", "a/foo", false, false},
	{"a/foo", "a/foo", false, true},
	{"a/foo", "x/a/foo", false, false},
	{"a/foo/", "a/foo", true, true},
	{"a/foo/", "a/foo", false, false},
	{"a\\/foo", "a/foo", false, true},
	{"a\\/foo", "x/a/foo", false, false},
	// "*" and "?" never match "/".
	{"*.o", "x.o", false, true},
	{"*.o", "a/b/x.o", false, true},
	{"*.o", ".o", false, true},
	{"*.o", "x.oo", false, false},
	{"/*.o", "a/x.o", false, false},
	{"a/*.o", "a/x.o", false, true},
	{"a/*.o", "a/b/x.o", false, false},
	{"a*", "abc", false, true},
	{"a*b*c", "aXbYc", false, true},
	{"a*b*c", "aXbY", false, false},
	{"?", "a", false, true},
	{"?", "ab", false, false},
	{"?", "é", false, false}, // two bytes
	{"/a?b", "a/b", false, false},
	{"/a*b", "a/b", false, false},
	{"a?c", "abc", false, true},
	// Bracket expressions.
	{"[ab]", "a", false, true},
	{"[ab]", "c", false, false},
	{"x[a-c]y", "xby", false, true},
	{"x[a-c]y", "xdy", false, false},
	{"x[!a-c]y", "xdy", false, true},
	{"x[!a-c]y", "xby", false, false},
	{"x[^a-c]y", "xdy", false, true},
	{"x[]]y", "x]y", false, true},
	{"x[]a]y", "xay", false, true},
	{"x[!]]y", "x]y", false, false},
	{"x[!]]y", "xay", false, true},
	{"x[a-]y", "x-y", false, true},
	{"x[-a]y", "x-y", false, true},
	{"x[]-]y", "x-y", false, true},
	{"x[\\]]y", "x]y", false, true},
	{"x[a\\-c]y", "xby", false, false},
	{"x[a\\-c]y", "x-y", false, true},
	{"x[\\a-\\c]y", "xby", false, true},
	{"x[c-a]y", "xcy", false, true}, // a reversed range holds its first byte
	{"x[c-a]y", "xby", false, false},
	{"x[c-a-e]y", "x-y", false, true},
	{"x[c-a-e]y", "xdy", false, false},
	{"x[[]y", "x[y", false, true},
	{"x[[:]y", "x:y", false, true},
	{"x[[:alpha:]]y", "xQy", false, true},
	{"x[[:alpha:]]y", "x1y", false, false},
	{"x[[:digit:][:upper:]]y", "x1y", false, true},
	{"x[[:digit:][:upper:]]y", "xqy", false, false},
	{"x[[:alpha:]-]y", "x-y", false, true},
	{"x[![:alpha:]]y", "x1y", false, true},
	{"x[[:space:]]y", "x y", false, true},
	{"x[[:space:]]y", "x\vy", false, false},
	{"x[[:punct:]]y", "x_y", false, true},
	{"x[[:xdigit:]]y", "xFy", false, true},
	{"x[[:xdigit:]]y", "xgy", false, false},
	{"x[[:nope:]]y", "xny", false, false}, // unknown class: matches nothing
	{"x[[::]]y", "x:]y", false, false},
	{"x[ab", "x[ab", false, false}, // unclosed: matches nothing
	{"x[ab", "xa", false, false},
	{"[]", "]", false, false},
	{"/a[/]b", "a/b", false, false},
	{"/a[!x]b", "a/b", false, false},
	// Backslash escapes.
	{"\\*", "*", false, true},
	{"\\*", "a", false, false},
	{"\\?", "?", false, true},
	{"\\[a]", "[a]", false, true},
	{"\\\\", "\\", false, true},
	{"a\\", "a", false, false}, // a lone trailing backslash matches nothing
	{"\\#a", "#a", false, true},
	{"\\!a", "!a", false, true},
	{"\\a", "a", false, true},
	// "**".
	{"**/foo", "foo", false, true},
	{"**/foo", "a/b/foo", false, true},
	{"**/foo", "a/xfoo", false, false},
	{"**/foo/bar", "x/foo/bar", false, true},
	{"**/foo/bar", "foo/bar", false, true},
	{"**/foo/bar", "x/bar", false, false},
	{"abc/**", "abc/x", false, true},
	{"abc/**", "abc/x/y", false, true},
	{"abc/**", "abc", true, false},
	{"a/**/b", "a/b", false, true},
	{"a/**/b", "a/x/b", false, true},
	{"a/**/b", "a/x/y/b", false, true},
	{"a/**/b", "a/xb", false, false},
	{"a/**/**/b", "a/b", false, true},
	{"a/***/b", "a/x/y/b", false, true},
	{"/**", "a/b", false, true},
	{"**", "a", false, true},
	{"a**b", "axxb", false, true},
	{"/a**b", "ax/b", false, false},
	{"/a/**b", "a/x/b", false, false},
	{"/a/**b", "a/xb", false, true},
	{"/**a", "x/a", false, false},
	{"a/**/", "a/x", true, true},
	{"a/**/", "a/x", false, false},
	{"a/*/**/b", "a/b", false, false},
	{"a/*/**/b", "a/x/y/b", false, true},
	// "**" right after the literal start of a pattern counts as leading.
	{"a**/b", "ab", false, true},
	{"a**/b", "ax/y/b", false, true},
	{"a**/b", "axb", false, false},
	{"\\a**/b", "ax/y/b", false, false},
	{"[a]**/b", "ax/y/b", false, false},
	{"a/?**/b", "a/x/y/b", false, false},
	{"a\\/**/b", "a/x/y/b", false, true},
	{"a\\**/b", "a*x/b", false, true},
	{"a\\**/b", "a*x/y/b", false, false},
	{"/**\\/a", "x/y/a", false, true},
	{"/**\\/a", "a", false, false},
	{"/x**\\/y", "xa/b/y", false, true},
	{"/x/?**\\/y", "x/ab/c/y", false, false},
	{"/**\\a", "x/a", false, false},
	// Spaces, "#" and "!".
	{"a ", "a", false, true},
	{"a\\ ", "a ", false, true},
	{"a\\ ", "a", false, false},
	{"a \\ ", "a  ", false, true},
	{"a\t", "a\t", false, true},
	{"a\t", "a", false, false},
	{" #a", " #a", false, true},
	{"a\r", "a", false, true},
	{"a\x00b", "a", false, true},
}

func TestPatternMatch(t *testing.T) {
	for _, tt := range patternCases {
		t.Run(fmt.Sprintf("%q/%q/%v", tt.line, tt.path, tt.dir), func(t *testing.T) {
			p, ok := parseLine(tt.line, "")
			got := ok && p.matches(tt.path, path.Base(tt.path), tt.dir)
			if got != tt.want {
				t.Errorf("%q matches %q (dir %v) = %v, want %v", tt.line, tt.path, tt.dir, got, tt.want)
			}
			if ok && len(tt.path) < 24 && len(p.glob.prog) < 12 {
				subject := path.Base(tt.path)
				if p.flags&flagAnchored != 0 {
					subject = tt.path
				}
				rest, in := strings.CutPrefix(subject, p.glob.head)
				if want := in && refMatch(p.glob.prog, rest); p.glob.match(subject) != want {
					t.Errorf("glob %q on %q = %v, refMatch %v", tt.line, subject, !want, want)
				}
			}
		})
	}
}

func TestParseLine(t *testing.T) {
	type result struct {
		Text  string
		Flags uint8
		OK    bool
	}
	for _, tt := range []struct {
		line string
		want result
	}{
		{"", result{}},
		{"# comment", result{}},
		{"   ", result{}},
		{"!", result{}},
		{"/", result{}},
		{"!/", result{}},
		{"\\", result{}},
		{"a[", result{}},
		{"a", result{"a", 0, true}},
		{"a  ", result{"a", 0, true}},
		{"a\\ ", result{"a\\ ", 0, true}},
		{"a\\  ", result{"a\\ ", 0, true}},
		{"a\\\\ ", result{"a\\\\", 0, true}},
		{"a b  c ", result{"a b  c", 0, true}},
		{"a \t", result{"a \t", 0, true}},
		{"a\r", result{"a", 0, true}},
		{"a \r", result{"a", 0, true}},
		{"!a/", result{"!a/", flagNegative | flagDirOnly, true}},
		{"!!a", result{"!!a", flagNegative, true}},
		{"\\!a", result{"\\!a", 0, true}},
		{"/a", result{"/a", flagAnchored, true}},
		{"a/b", result{"a/b", flagAnchored, true}},
		{"a/b/", result{"a/b/", flagAnchored | flagDirOnly, true}},
		{"**/a", result{"**/a", flagAnchored, true}},
		{"a//", result{"a//", flagAnchored | flagDirOnly, true}},
		{" #a", result{" #a", 0, true}},
	} {
		p, ok := parseLine(tt.line, "")
		got := result{p.text, p.flags, ok}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("parseLine(%q) mismatch (-want +got):\n%s", tt.line, diff)
		}
	}
}

func TestParseLineNumbers(t *testing.T) {
	l := parse([]byte("\xef\xbb\xbfa\n\n# c\r\nb\r\n\xef\xbb\xbfc\nd"), "sub/", "sub/.gitignore")
	type line struct {
		Text string
		Line int
	}
	var got []line
	for _, p := range l.patterns {
		if p.base != "sub/" || p.source != "sub/.gitignore" {
			t.Errorf("pattern %q: base %q, source %q", p.text, p.base, p.source)
		}
		got = append(got, line{p.text, p.line})
	}
	want := []line{{"a", 1}, {"b", 4}, {"\xef\xbb\xbfc", 5}, {"d", 6}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("parse mismatch (-want +got):\n%s", diff)
	}
}

// TestListLastWins checks that within one file the last matching line
// decides, whichever index (name, path or the rest) holds it.
func TestListLastWins(t *testing.T) {
	l := parse([]byte("*.o\n!keep.o\nkeep.o/\n/top.o\n!/top.o\n!*.o\n/top.o\nsub/x.o\n!sub/*.o\n"), "", ".gitignore")
	for _, tt := range []struct {
		path string
		dir  bool
		want string
	}{
		{"keep.o", false, "!*.o"},
		{"keep.o", true, "!*.o"},
		{"top.o", false, "/top.o"},
		{"a/top.o", false, "!*.o"},
		{"sub/x.o", false, "!sub/*.o"},
		{"x.c", false, ""},
	} {
		got := ""
		if p := l.match(tt.path, path.Base(tt.path), tt.dir); p != nil {
			got = p.text
		}
		if got != tt.want {
			t.Errorf("match(%q, dir %v) = %q, want %q", tt.path, tt.dir, got, tt.want)
		}
	}
}

// TestGlobBounded runs globs whose naive backtracking would take
// exponential time on subjects they almost match; the matcher's cost is
// bounded by tokens × subject length (see glob.go), so these return at once.
func TestGlobBounded(t *testing.T) {
	long := strings.Repeat("a", 4000)
	for _, tt := range []struct {
		body, subject string
		want          bool
	}{
		{strings.Repeat("a*", 30) + "b", long, false},
		{strings.Repeat("a*", 30) + "c*", long, false},
		{"**/" + strings.Repeat("a*", 30) + "c*", long, false},
		{"**/" + strings.Repeat("a*", 30) + "c*/**", long + "/" + long, false},
		{strings.Repeat("a*", 30) + "a", long, true},
		{strings.Repeat("**/a", 30) + "/b", strings.Repeat("a/", 2000) + "c", false},
		{strings.Repeat("*a", 30) + "**/b", long + "/" + long, false},
		{"a**/" + strings.Repeat("*a", 20) + "/**", long + "/x/" + long + "/y", true},
		{strings.Repeat("?", 3999), long, false},
		{strings.Repeat("[a-b]*", 40) + "c", long, false},
	} {
		g, ok := compileGlob(tt.body)
		if !ok {
			t.Fatalf("compileGlob(%.20q…) failed", tt.body)
		}
		if got := g.match(tt.subject); got != tt.want {
			t.Errorf("%.20q… on %d bytes = %v, want %v", tt.body, len(tt.subject), got, tt.want)
		}
	}
}

func BenchmarkGlobPathological(b *testing.B) {
	stars := strings.Repeat("a*", 30) + "c*"
	for _, tt := range []struct{ name, body, subject string }{
		{"flat", stars, strings.Repeat("a", 200)},
		{"dirs", "**/" + stars, strings.Repeat("a", 200)},
		{"general", "**/" + stars + "/**", strings.Repeat("a", 100) + "/" + strings.Repeat("a", 100)},
	} {
		g, ok := compileGlob(tt.body)
		if !ok {
			b.Fatal("compileGlob failed")
		}
		s := tt.subject
		b.Run(tt.name, func(b *testing.B) {
			for b.Loop() {
				if g.match(s) {
					b.Fatal("matched")
				}
			}
		})
	}
}

// refMatch is the plain recursive reading of a glob program, exponential
// in the worst case, to check run and the shortcuts against.
func refMatch(prog []token, s string) bool {
	if len(prog) == 0 {
		return s == ""
	}
	t, rest := prog[0], prog[1:]
	switch t.kind {
	case tokStar:
		for i := 0; ; i++ {
			if refMatch(rest, s[i:]) {
				return true
			}
			if i == len(s) || s[i] == '/' {
				return false
			}
		}
	case tokAny:
		for i := 0; i <= len(s); i++ {
			if refMatch(rest, s[i:]) {
				return true
			}
		}
		return false
	case tokDirs:
		if refMatch(rest, s) {
			return true
		}
		for i := 0; i < len(s); i++ {
			if s[i] == '/' && refMatch(rest, s[i+1:]) {
				return true
			}
		}
		return false
	}
	q := t.advance(s, 0)
	return q >= 0 && refMatch(rest, s[q:])
}

// TestRunAgreesWithFlat checks the two general matchers against each other
// on random programs without "**" and subjects long enough to span several
// words of offsets.
func TestRunAgreesWithFlat(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	pieces := []string{"a", "b", "ab", "/", "*", "*", "?", "[ab]", "[!a]", ".", "a/b", "\\*"}
	matched := 0
	for range 3000 {
		var pat strings.Builder
		for range 1 + rng.IntN(12) {
			pat.WriteString(pieces[rng.IntN(len(pieces))])
		}
		body := pat.String()
		subject := make([]byte, 40+rng.IntN(300))
		for i := range subject {
			subject[i] = "aab/."[rng.IntN(5)]
		}
		s := string(subject)
		if rng.IntN(2) == 0 { // a subject the glob may well accept
			s = strings.Repeat("a", 70) + "/" + strings.NewReplacer("*", "ab", "?", "a", "[ab]", "b",
				"[!a]", "b", "\\", "").Replace(body)
			body = "*/" + body
		}
		g, ok := compileGlob(body)
		if !ok || g.shape != shapeFlat && g.shape != shapeStar && g.shape != shapeSuffix {
			continue
		}
		rest, ok := strings.CutPrefix(s, g.head)
		if !ok {
			continue
		}
		flat, dp := matchFlat(g.prog, rest), run(g.prog, rest)
		if flat != dp {
			t.Errorf("glob %q on %q: matchFlat %v, run %v", body, s, flat, dp)
		}
		if flat {
			matched++
		}
	}
	t.Logf("%d subjects matched", matched)
	if matched < 100 {
		t.Errorf("%d subjects matched: too few for the test to mean much", matched)
	}
}
