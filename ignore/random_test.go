package ignore

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestDifferentialRandom compares the matcher with git on generated
// repositories: random patterns (negations, anchors, "**", classes,
// escapes, dir-only) in .gitignore files at several depths, random
// trees, and a random tracked subset.
func TestDifferentialRandom(t *testing.T) {
	seeds := 40
	if testing.Short() {
		seeds = 4
	}
	total := 0
	for seed := range seeds {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			env := isolateGit(t)
			dir := t.TempDir()
			rng := rand.New(rand.NewPCG(uint64(seed), 42))
			tracked := randomTree(t, rng, dir)
			initRepo(t, dir, 2, tracked...)
			m, err := New(dir)
			if err != nil {
				t.Fatal(err)
			}
			verdicts := compareCheckIgnore(t, env, m, dir, "")
			total += len(verdicts)
			compareWalk(t, env, m, dir, verdicts)
		})
	}
	t.Logf("compared %d paths with git check-ignore", total)
}

var (
	randomNames    = []string{"a", "b", "ab", "ba", "a.o", "b.o", "c.txt", "x", "deep", "a b", "#c", "!d", "a*", "e+"}
	randomSegments = []string{"a", "b", "ab", "x", "deep", "*", "?", "**", "a*", "*b", "*.o", "[ab]", "[!a]*", "[a-c]",
		"\\*", "a\\*", "\\#c", "\\!d", "?b", "*+", "e+", "c.*", "[[:alpha:]]", "a\\ b", "**",
		"a**", "**b", "***", "[]a]", "[!]]*", "[a-]", "[c-a]", "[[:punct:]]*", "[[:space:]]", "[[:nope:]]",
		"**\\/", "a\\/b", "[", "\\", "d\\ ", "[\\]]", "*[!.o]"}
)

// randomTree writes 40-120 files under dir with .gitignore files in the
// top and some directories, and returns a random subset to track.
func randomTree(t *testing.T, rng *rand.Rand, dir string) (tracked []string) {
	t.Helper()
	isFile := map[string]bool{}
	dirs := map[string]bool{"": true}
	for range 40 + rng.IntN(80) {
		var parts []string
		for range 1 + rng.IntN(4) {
			parts = append(parts, randomNames[rng.IntN(len(randomNames))])
		}
		p := strings.Join(parts, "/")
		if dirs[p] || isFile[p] || conflicts(p, isFile) {
			continue
		}
		isFile[p] = true
		for d := path.Dir(p); d != "."; d = path.Dir(d) {
			dirs[d] = true
		}
	}
	for _, f := range slices.Sorted(maps.Keys(isFile)) {
		writeFile(t, filepath.Join(dir, filepath.FromSlash(f)), f+"\n")
		if rng.IntN(8) == 0 {
			tracked = append(tracked, f)
		}
	}
	for _, d := range slices.Sorted(maps.Keys(dirs)) {
		if d == "" || rng.IntN(4) == 0 {
			writeFile(t, filepath.Join(dir, filepath.FromSlash(d), ".gitignore"), randomIgnore(rng))
		}
	}
	return tracked
}

// conflicts reports whether a directory of p is already a file.
func conflicts(p string, isFile map[string]bool) bool {
	for d := path.Dir(p); d != "."; d = path.Dir(d) {
		if isFile[d] {
			return true
		}
	}
	return false
}

func randomIgnore(rng *rand.Rand) string {
	var b strings.Builder
	for range 1 + rng.IntN(8) {
		if rng.IntN(10) == 0 {
			b.WriteString("# comment\n\n")
		}
		if rng.IntN(4) == 0 {
			b.WriteByte('!')
		}
		if rng.IntN(5) == 0 {
			b.WriteByte('/')
		}
		n := 1 + rng.IntN(3)
		for i := range n {
			if i > 0 {
				b.WriteByte('/')
			}
			b.WriteString(randomSegments[rng.IntN(len(randomSegments))])
		}
		if rng.IntN(5) == 0 {
			b.WriteByte('/')
		}
		if rng.IntN(10) == 0 {
			b.WriteString("  ")
		}
		b.WriteByte('\n')
	}
	return b.String()
}
