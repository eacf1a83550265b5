package grep

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestLiterals(t *testing.T) {
	for _, tt := range []struct {
		expr       string
		o          Options
		want       []string
		fold, pure bool
	}{
		{expr: `strbuf_addf`, want: []string{"strbuf_addf"}, pure: true},
		{expr: `xmalloc\(`, want: []string{"xmalloc("}, pure: true},
		{expr: `TODO|FIXME`, want: []string{"FIXME", "TODO"}, pure: true},
		{expr: `(?i)deprecated`, want: []string{"deprecated"}, fold: true, pure: true},
		{expr: `Deprecated`, o: Options{CaseInsensitive: true}, want: []string{"deprecated"}, fold: true, pure: true},
		{expr: `[a-z]+_release\(&`, want: []string{"_release(&"}},
		{expr: `\bstatic inline\b`, want: []string{"static inline"}},
		{expr: `^#include <`, want: []string{"#include <"}},
		{expr: `(foo|bar)baz`, want: []string{"barbaz", "foobaz"}, pure: true},
		{expr: `[Ss]trbuf`, want: []string{"strbuf"}, fold: true}, // trbuf is case-sensitive: compared caselessly, not pure
		{expr: `[Ss]`, want: []string{"s"}, fold: true, pure: true},
		{expr: `colou?r`, want: []string{"color", "colour"}, pure: true},
		{expr: `a+bcd`, want: []string{"bcd"}},
		{expr: `x*`},
		{expr: `.`},
		{expr: `\w+`},
		{expr: `foo.*bar`, want: []string{"foo"}},                 // both required: the first of equally good ones is kept
		{expr: `(?i)kelvin`, want: []string{"elvin"}, fold: true}, // k folds with the Kelvin sign
		{expr: `(?i)sk`}, // s and k: no ASCII-foldable piece
		{expr: `(?i)straße`, want: []string{"tra"}, fold: true},                     // s and ß fold outside ASCII
		{expr: `(?i)Foo|bar`, want: []string{"bar", "foo"}, fold: true, pure: true}, // (?i) reaches the end of its group: all caseless
		{expr: `(?i:foo)Bar`, want: []string{"foobar"}, fold: true},                 // Bar is case-sensitive: compared caselessly, not pure
		{expr: `日本`, want: []string{"日本"}, pure: true},
		{expr: `a.b(c`, o: Options{FixedStrings: true}, want: []string{"a.b(c"}, pure: true},
		{expr: `free`, o: Options{Word: true}, want: []string{"free"}},
		{expr: `(a|b|c|d|e|f|g|h|i|j|k|l|m|n|o|p|q)z`, want: []string{"z"}},
	} {
		t.Run(tt.expr, func(t *testing.T) {
			p, err := Compile(tt.expr, tt.o)
			if err != nil {
				t.Fatal(err)
			}
			got, fold := p.Literals()
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("literals mismatch (-want +got):\n%s", diff)
			}
			if len(got) > 0 && fold != tt.fold || p.pure != tt.pure {
				t.Errorf("fold %v pure %v, want %v %v", fold, p.pure, tt.fold, tt.pure)
			}
		})
	}
}

func TestCompileLineRules(t *testing.T) {
	for _, tt := range []struct {
		expr    string
		o       Options
		line    string
		want    bool
		wantErr string
	}{
		{expr: `a\sb`, line: "a b", want: true},
		{expr: `a[^x]b`, line: "a-b", want: true},
		{expr: `a\nb`, wantErr: "line feed"},
		{expr: `a\nb`, o: Options{Multiline: true}, line: "a\nb", want: true},
		{expr: `[`, wantErr: "bad pattern"},
		{expr: `a)|(b`, o: Options{Word: true}, wantErr: "bad pattern"},
		{expr: ``, wantErr: "empty"},
		{expr: `x$`, line: "x\r", want: false},
		{expr: `x\r$`, line: "x\r", want: true},
		{expr: `^b`, line: "a\nb", want: true},
		{expr: `a(?s:.)b`, line: "a\nb", want: false},
	} {
		t.Run(tt.expr, func(t *testing.T) {
			p, err := Compile(tt.expr, tt.o)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("Compile(%q) error %v, want %q", tt.expr, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := p.re.MatchString(tt.line); got != tt.want {
				t.Errorf("%q (as %s) on %q: %v, want %v", tt.expr, p, tt.line, got, tt.want)
			}
		})
	}
	if _, err := Compile(`\n`, Options{}); !errors.Is(err, ErrLineFeed) {
		t.Errorf("a literal line feed: %v, want ErrLineFeed", err)
	}
}

func TestFinder(t *testing.T) {
	text := []byte("xx Deprecated yy\nDEPRECATED\nstrbuf\ndeprecate\nTODO FIXME\n")
	for _, tt := range []struct {
		lits literals
		want []int
	}{
		{literals{strs: []string{"deprecated"}, fold: true}, []int{3, 17}},
		{literals{strs: []string{"Deprecated"}}, []int{3}},
		{literals{strs: []string{"FIXME", "TODO"}}, []int{45, 50}},
		{literals{strs: []string{"nothere"}}, nil},
	} {
		f := newFinder(tt.lits)
		var c cursor
		c.reset(f, text)
		var got []int
		for at := c.find(0); at >= 0; at = c.find(at + 1) {
			got = append(got, at)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%v: hits mismatch (-want +got):\n%s", tt.lits, diff)
		}
	}
}
