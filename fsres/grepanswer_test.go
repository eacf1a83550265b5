package fsres

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/grove-mcp/grove/fsres/internal/grep"
	"github.com/grove-mcp/grove/internal/jsonenc"
)

// stdGrepJSON is what encoding/json writes for r, HTML escaping off: the
// generic encoding GrepResult.AppendJSON must match byte for byte.
func stdGrepJSON(t *testing.T, r GrepResult) []byte {
	t.Helper()
	type plain GrepResult // without the method
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(plain(r)); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

// texts that need every kind of escape, and none.
var oddTexts = []string{"", "plain", "\t\treturn 0;", `say "hi" \ there`, "ctl\x01\x1f", "é ü 日本",
	"bad \xff\xfe utf-8", "sep\u2028\u2029", "<html>&amp;", strings.Repeat("long line ", 300)}

func randomGrepResult(r *rand.Rand, matches int) GrepResult {
	g := GrepResult{Path: "/root/" + oddTexts[r.IntN(len(oddTexts))], Total: matches, Files: r.IntN(5000),
		Skipped: r.IntN(2) * r.IntN(9), Cut: r.IntN(2) == 0}
	if r.IntN(8) > 0 {
		g.Matches = []GrepMatch{}
	}
	path := "a.go"
	for i := range matches {
		if r.IntN(4) == 0 {
			path = fmt.Sprintf("dir/%s%d.c", oddTexts[r.IntN(len(oddTexts))], i)
		}
		g.Matches = append(g.Matches, GrepMatch{Path: path, Line: r.IntN(100000), Text: oddTexts[r.IntN(len(oddTexts))]})
	}
	for range r.IntN(3) {
		g.Listed = append(g.Listed, oddTexts[r.IntN(len(oddTexts))])
	}
	for range r.IntN(3) {
		g.Counts = append(g.Counts, GrepCount{Path: oddTexts[r.IntN(len(oddTexts))], Count: r.IntN(99)})
	}
	return g
}

// GrepResult's own encoder writes encoding/json's bytes: escapes of every
// kind, paths shared by runs of matches, nil and empty lists, omitted
// fields, and lists long enough to be split across two goroutines.
func TestGrepResultJSON(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 200 {
		n := r.IntN(40)
		if i%20 == 0 {
			n = 9000 + r.IntN(3000)
		}
		g := randomGrepResult(r, n)
		got, err := jsonenc.Marshal(g)
		if err != nil {
			t.Fatal(err)
		}
		if want := stdGrepJSON(t, g); !bytes.Equal(got, want) {
			t.Fatalf("case %d (%d matches): jsonenc and encoding/json differ\n got %.300s\nwant %.300s", i, n, got, want)
		}
		jsonenc.Release(got)
	}
}

// randomHits makes files of matching and context lines, with gaps between
// groups so that context answers need "--" separators.
func randomHits(r *rand.Rand, files int) *grep.Result {
	res := &grep.Result{}
	for f := range files {
		h := grep.Hits{Rel: fmt.Sprintf("src/%sf%04d.c", oddTexts[r.IntN(len(oddTexts))], f)}
		n := 0
		for range 1 + r.IntN(12) {
			n += 1 + r.IntN(3)*r.IntN(5)
			l := grep.Line{N: n, Match: r.IntN(3) > 0, Text: oddTexts[r.IntN(len(oddTexts))]}
			if l.Match {
				h.Matches++
			}
			h.Lines = append(h.Lines, l)
		}
		if h.Matches > 0 {
			res.Files = append(res.Files, h)
			res.Matches += h.Matches
		}
	}
	return res
}

// A content answer rendered in two halves is the answer rendered in one
// piece: the same text, "--" separators included, and the same matches.
// Its JSON string is the text's, and out's JSON made with it is what
// encoding/json writes for out: escapes of every kind, in paths too.
func TestRenderContentHalves(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, files := range []int{0, 1, 30, 2000} {
		res := randomHits(r, files)
		for _, context := range []bool{false, true} {
			for _, cut := range []bool{false, true} {
				head, tail := "12 matching lines in \"odd\"\tdir\n", ""
				res.Cut = cut
				if cut {
					tail = "(cut at 12 matching lines; \x01)\n"
				}
				out := GrepResult{Path: "/root/é \xff", Matches: []GrepMatch{}, Total: res.Matches, Files: 7, Cut: cut}
				text, quoted, err := renderContent(head, tail, &out, res, context)
				if err != nil {
					t.Fatal(err)
				}
				whole := make([]GrepMatch, res.Matches)
				var one rendering
				one.lines(whole, res.Files, 0, context)
				if text != head+string(one.raw)+tail {
					t.Fatalf("%d files, context %v: the halves' text differs from the whole's", files, context)
				}
				if n := textSize(res.Files, 0, context); n != len(one.raw) {
					t.Fatalf("%d files: textSize says %d bytes, the text is %d", files, n, len(one.raw))
				}
				if len(out.Matches) != len(whole) {
					t.Fatalf("%d files: %d matches, want %d", files, len(out.Matches), len(whole))
				}
				for i := range whole {
					if out.Matches[i] != whole[i] || whole[i].Path == "" {
						t.Fatalf("%d files: match %d is %+v, want %+v", files, i, out.Matches[i], whole[i])
					}
				}
				if files == 2000 && !strings.Contains(text, "f1999.c") {
					t.Fatal("the last file is missing")
				}
				if got, want := quoted.Take(), jsonenc.AppendString(nil, text); !bytes.Equal(got, want) {
					t.Fatalf("%d files, context %v: the quoted text differs from the text's JSON\n got %.300q\nwant %.300q", files, context, got, want)
				}
				if quoted.Take() != nil {
					t.Fatal("the quoted text was handed out twice")
				}
				want := stdGrepJSON(t, out)
				got, err := jsonenc.Marshal(out)
				if err != nil || !bytes.Equal(got, want) {
					t.Fatalf("%d files, context %v: the JSON made with the text differs from encoding/json's (%v)\n got %.300s\nwant %.300s", files, context, err, got, want)
				}
				// Taken once: encoded again, out is encoded from its fields, to the same bytes.
				if again, err := jsonenc.Marshal(out); err != nil || !bytes.Equal(again, want) {
					t.Fatalf("%d files: out encoded again differs (%v)", files, err)
				}
			}
		}
	}
}
