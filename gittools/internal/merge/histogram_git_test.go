package merge

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/grove-mcp/grove/internal/linediff"
)

var hunkHeader = regexp.MustCompile(`(?m)^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@`)

// gitHistogram returns git's histogram diff of two files as changes (from `git diff -U0 --histogram`).
func gitHistogram(t *testing.T, dir string, a, b string) []linediff.Change {
	t.Helper()
	pa, pb := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	os.WriteFile(pa, []byte(a), 0o644)
	os.WriteFile(pb, []byte(b), 0o644)
	out, _ := exec.Command("git", "diff", "--no-index", "-U0", "--histogram", "--no-indent-heuristic", pa, pb).Output()
	var cs []linediff.Change
	for _, m := range hunkHeader.FindAllStringSubmatch(string(out), -1) {
		num := func(s string, def int) int {
			if s == "" {
				return def
			}
			n, _ := strconv.Atoi(s)
			return n
		}
		a0, na, b0, nb := num(m[1], 0), num(m[2], 1), num(m[3], 0), num(m[4], 1)
		if na > 0 {
			a0--
		}
		if nb > 0 {
			b0--
		}
		cs = append(cs, linediff.Change{A0: a0, A1: a0 + na, B0: b0, B1: b0 + nb})
	}
	return cs
}

func TestHistogramAgreesWithGit(t *testing.T) {
	dir := t.TempDir()
	r := rand.New(rand.NewPCG(7, 8))
	bad := 0
	for i := range 300 {
		a := randomText(r, 3+r.IntN(30))
		b := edit(r, a)
		if r.IntN(3) == 0 {
			b = edit(r, b)
		}
		want := gitHistogram(t, dir, strings.Join(a, ""), strings.Join(b, ""))
		got := linediff.Histogram(a, b)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			bad++
			if bad <= 3 {
				t.Logf("case %d\na:\n%s\nb:\n%s\nwant %v\ngot  %v", i, strings.Join(a, ""), strings.Join(b, ""), want, got)
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of 300 diffs differ from git's histogram diff", bad)
	}
}
