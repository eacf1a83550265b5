package unified

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/grove-mcp/grove/internal/testenv"
)

func TestMain(m *testing.M) { os.Exit(testenv.NeedGit(m)) }

// gitHunks runs `git diff --no-index` once over many pairs of texts and returns, per pair, its hunks
// (the patch from the first "@@" on; "" when the texts are equal).
func gitHunks(t *testing.T, pairs [][2]string, args ...string) []string {
	t.Helper()
	dir := t.TempDir()
	for _, side := range []string{"a", "b"} {
		if err := os.Mkdir(filepath.Join(dir, side), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for i, p := range pairs {
		for k, side := range []string{"a", "b"} {
			if err := os.WriteFile(filepath.Join(dir, side, fmt.Sprintf("%05d", i)), []byte(p[k]), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	cmd := exec.Command("git", append(append([]string{"diff", "--no-index", "--no-color"}, args...), "a", "b")...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+dir, "XDG_CONFIG_HOME="+dir, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "LC_ALL=C")
	out, err := cmd.Output()
	if err != nil && cmd.ProcessState.ExitCode() != 1 {
		t.Fatalf("git diff --no-index: %v", err)
	}
	got := make([]string, len(pairs))
	for _, sec := range strings.Split(string(out), "diff --git a/a/")[1:] {
		var i int
		fmt.Sscanf(sec[:5], "%d", &i)
		if at := strings.Index(sec, "\n@@ "); at >= 0 {
			got[i] = sec[at+1:]
		}
	}
	return got
}

func ours(a, b string, ctx int) string {
	var buf bytes.Buffer
	Write(&buf, []byte(a), []byte(b), Options{Context: ctx})
	return buf.String()
}

// codeLines is an alphabet of lines that make sliders: blank lines, closing braces, repeated statements
// at several indentations.
var codeLines = []string{
	"\n", "\n", "\n", "}\n", "}\n", "\t}\n", "{\n", "int f(void)\n", "static int g(int x)\n", "\tif (x) {\n",
	"\t\treturn 1;\n", "\treturn 0;\n", "\tx++;\n", "\t\tx--;\n", "/* comment */\n", "#include <a.h>\n",
	"  - item\n", "    nested\n", "end\n", "        deep\n",
}

func randomText(r *rand.Rand, n int) []string {
	l := make([]string, n)
	for i := range l {
		l[i] = codeLines[r.IntN(len(codeLines))]
	}
	return l
}

// edit changes a few places of a: lines or blocks deleted, inserted, duplicated or moved.
func edit(r *rand.Rand, a []string) []string {
	b := append([]string(nil), a...)
	for range 1 + r.IntN(maxEdits) {
		i := r.IntN(len(b) + 1)
		n := 1 + r.IntN(6)
		switch r.IntN(4) {
		case 0:
			b = append(b[:i], b[min(i+n, len(b)):]...)
		case 1: // new lines, some of them unique
			blk := randomText(r, n)
			for k := range blk {
				if r.IntN(2) == 0 {
					blk[k] = fmt.Sprintf("new %d\n", r.Int())
				}
			}
			b = append(b[:i], append(blk, b[i:]...)...)
		case 2: // a copy of a nearby block
			j := max(0, i-n-r.IntN(5))
			blk := append([]string(nil), b[j:min(j+n, len(b))]...)
			b = append(b[:i], append(blk, b[i:]...)...)
		default:
			if i < len(b) {
				b[i] = codeLines[r.IntN(len(codeLines))]
			}
		}
	}
	return b
}

var pairsN, maxLines, maxEdits = 600, 60, 4

func TestWriteMatchesGit(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var pairs [][2]string
	for range pairsN {
		a := randomText(r, 5+r.IntN(maxLines))
		b := edit(r, a)
		pairs = append(pairs, [2]string{strings.Join(a, ""), strings.Join(b, "")})
	}
	want := gitHunks(t, pairs)
	bad := 0
	for i, p := range pairs {
		if got := ours(p[0], p[1], 3); got != want[i] {
			bad++
			if bad <= 3 {
				t.Errorf("pair %d differs from git:\n--- old\n%s--- new\n%s--- git\n%s--- ours\n%s", i, p[0], p[1], want[i], got)
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d differ from git", bad, len(pairs))
	}
}

// TestLabeledMatchesGit checks edit_file's diff (Labeled) against `git diff --no-index` of the same edit,
// from the "---" line on: CRLF files, a missing final newline, edits at either end, an emptied file.
func TestLabeledMatchesGit(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	var pairs [][2]string
	for i := range 200 {
		a := randomText(r, 1+r.IntN(40))
		b := edit(r, a)
		as, bs := strings.Join(a, ""), strings.Join(b, "")
		if i%4 == 1 {
			as, bs = strings.ReplaceAll(as, "\n", "\r\n"), strings.ReplaceAll(bs, "\n", "\r\n")
		}
		if i%3 == 2 {
			bs = strings.TrimSuffix(bs, "\n")
		}
		if i%5 == 3 {
			as = strings.TrimSuffix(as, "\n")
		}
		if i%50 == 7 {
			bs = ""
		}
		pairs = append(pairs, [2]string{as, bs})
	}
	want := gitHunks(t, pairs)
	for i, p := range pairs {
		got := Labeled("a/f", "b/f", p[0], p[1])
		w := ""
		if want[i] != "" {
			w = "--- a/f\n+++ b/f\n" + want[i]
		}
		if got != w {
			t.Errorf("pair %d: Labeled mismatch with git (-git +ours):\n%s", i, cmp.Diff(w, got))
		}
	}
}

// TestWriteMatchesGitPastTheSearchBound diffs texts so different that the search settles for a point
// short of the middle (more than 256 rounds), as git's default algorithm does.
func TestWriteMatchesGitPastTheSearchBound(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	alphabet := make([]string, 40)
	for i := range alphabet {
		alphabet[i] = fmt.Sprintf("line %d\n", i)
	}
	text := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteString(alphabet[r.IntN(len(alphabet))])
		}
		return b.String()
	}
	var pairs [][2]string
	for range 6 {
		pairs = append(pairs, [2]string{text(800 + r.IntN(800)), text(800 + r.IntN(800))})
	}
	want := gitHunks(t, pairs)
	for i, p := range pairs {
		if got := ours(p[0], p[1], 3); got != want[i] {
			t.Errorf("pair %d differs from git (-git +ours):\n%.3000s", i, cmp.Diff(want[i], got))
		}
	}
}

// TestWriteNoContextMatchesGit compares hunks without context (git diff -U0) on texts that end in a common
// tail of 1 to 3 KB, where git shortens both texts before diffing and a change that could slide into the
// tail stops at the new end instead.
func TestWriteNoContextMatchesGit(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	var pairs [][2]string
	for range 300 {
		a := randomText(r, 5+r.IntN(20))
		b := edit(r, a)
		tail := randomText(r, 1+r.IntN(8))
		for size := 0; size < 1000+r.IntN(2000); {
			l := strings.Repeat("x", r.IntN(120)) + "\n"
			tail, size = append(tail, l), size+len(l)
		}
		tail = append(tail, randomText(r, r.IntN(8))...)
		common := strings.Join(tail, "")
		pairs = append(pairs, [2]string{strings.Join(a, "") + common, strings.Join(b, "") + common})
	}
	want := gitHunks(t, pairs, "-U0")
	bad := 0
	for i, p := range pairs {
		if got := ours(p[0], p[1], 0); got != want[i] {
			bad++
			if bad <= 3 {
				t.Errorf("pair %d differs from git -U0:\n--- git\n%s--- ours\n%s", i, want[i], got)
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d differ from git -U0", bad, len(pairs))
	}
}
