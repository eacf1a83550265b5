package gittools

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestBlameCommonTailMatchesGit inserts a function that could slide over its neighbour's last lines
// ("}", a blank line, "func …", "\treturn false") in front of a common tail of 2,048 + m bytes. git's diff
// for blame drops the tail in whole 1,024-byte blocks and gives back up to the next newline, so where the
// inserted lines are blamed depends on m: the blocks end before the slider, inside it, or after it.
func TestBlameCommonTailMatchesGit(t *testing.T) {
	f := newFixture(t)
	const head = "package s\n\nfunc a() bool {\n\treturn false\n}\n\n"
	const inserted = "func b() bool {\n\treturn false\n}\n\n"
	var paths, before, after []string
	for _, m := range []int{0, 1, 8, 9, 13, 14, 22, 23, 36, 37, 50, 400} {
		p := fmt.Sprintf("tail%d.go", m)
		tail := commonTail(head+inserted, head, 2048+m)
		paths = append(paths, p)
		before = append(before, p, head+tail)
		after = append(after, p, head+inserted+tail)
	}
	f.write(before...)
	f.commit("a and c")
	f.write(after...)
	f.commit("b")
	r, sc := f.repos()
	for _, p := range paths {
		want := gitBlameCommits(t, f.dir, f.home, "HEAD", p)
		if diff := cmp.Diff(want, groveBlameCommits(t, r, sc, "", p)); diff != "" {
			t.Errorf("%s: blame mismatch (-git +grove):\n%s", p, diff)
		}
	}
}

// commonTail returns a tail that gives x+tail and y+tail a common suffix of exactly n bytes.
func commonTail(x, y string, n int) string {
	body := "func c() {\n" + strings.Repeat("\tx()\n", 200) + "}\n"
	common := 0
	for common < min(len(x), len(y)) && x[len(x)-1-common] == y[len(y)-1-common] {
		common++
	}
	pad := n - common - len(body) - len("// \n")
	if pad < 0 {
		panic("commonTail: tail too long")
	}
	return body + "// " + strings.Repeat("p", pad) + "\n"
}
