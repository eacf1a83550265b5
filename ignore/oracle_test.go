package ignore

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// corpusTree is the tree every corpus entry is checked on: files and
// directories (ending in "/") whose names exercise the pattern language.
var corpusTree = []string{
	"a", "ab", "abc", "b", "ba", "bb", "a.o", ".o", "x.o", "a.txt", "foo", "foobar", "xfoo",
	"a b", "a ", " a", "a\t", "#a", "!a", "!!a", "*", "a*", "?", "[a]", "a\\", "é", "A", "_", "-", "]",
	"x1y", "xay", "xAy", "xby", "xcy", "xdy", "xzy", "x-y", "x]y", "x y", "x\ty", "x:y", "x[y", "x^y",
	"x!y", "x.y", "x\\y", "x*y", "xy", "x\vy", "x~y", "x\x7fy", "x\xe9y",
	"d/a", "d/b", "d/x.o", "d/eb", "d/bar", "d/foo/bar", "d/foo/x.o", "d/e/b", "d/e/f/b", "d/e/f/x.o",
	"e/b", "e/d/b", "e/x/d/b", "e/d/", "x/y", "x/z/y", "x/zz/y", "x/z/w/y", "tmp/t", "sub/tmp/t",
	"sub/a", "sub/ab", "sub/foo", "sub/x.o", "sub/d/a", "sub/d/foo/bar", "sub/e/b", "sub/a b",
	"deep/a/b/c/d/e", "deep/a/b/x.o", "ax/b", "ax/y/b", "axb/b", "a.d/b", "[ab]/c", "#d/x", "!d/x",
	"sp d/x", "bar/", "foo.d/bar/foo/x",
}

// corpusPatterns are the ignore files of the hand-written corpus, one
// directory each: single patterns of every kind, and small groups where
// the order of lines or an excluded directory decides.
var corpusPatterns = []string{
	// Names, anchoring, directories.
	"a", "/a", "b", "/b", "d", "/d", "d/", "/d/", "e/", "foo", "foo/", "/foo", "/foo/", "bar/",
	"d/a", "/d/a", "d/foo", "d/foo/", "d/e/f", "e/d", "e/d/", "sub/d", "foo/bar", "d/foo/bar",
	"tmp", "tmp/", "/tmp/", "sub/tmp/", "x/y", "x/z/y", "z/y", "deep/a", "a/b", "b/c",
	"a//", "//a", "/d//", "./a", "d/./a", "d/../d",
	// "*" and "?".
	"*", "/*", "*/", "/*/", "*.o", "/*.o", "*/*.o", "d/*", "d/*.o", "/d/*", "*/b", "/*/b", "*/*/b",
	"a*", "*a", "*b*", "x*y", "a*b*c", "?", "??", "/?", "x?y", "?/b", "d/?", "*.*", ".*", "*/", "x/*/y",
	"*o", "f*", "*foo*", "f?o*", "*.o/",
	// "**" in every position.
	"**", "/**", "**/", "**/a", "**/b", "**/d", "**/d/", "**/e/b", "**/d/b", "**/x.o", "**/foo/bar",
	"d/**", "/d/**", "d/**/", "e/**/b", "d/**/b", "d/**/x.o", "/d/**/b", "d/**/f/b", "deep/**/e",
	"**/**", "**/**/b", "d/**/**/b", "**/d/**", "**/e/**/b", "a**b", "a**", "**a", "/**a", "x**y",
	"a**/b", "/a**/b", "ax**/b", "d**/b", "/x**/y", "x/**y", "x/**/y", "x/***/y", "***/b", "***",
	"d/***", "a/**b", "**b", "/**/b", "**/", "d/**/e/", "e/**/", "x\\**/y", "\\**/b", "[a]**/b",
	"a?**/b", "/x/?**/y", "/x/**?/y", "a\\/**/b", "d\\/**/b", "**/**/x.o", "**x/y", "**/x/**",
	"/**\\/a", "/***\\/b", "x/**\\/y", "**\\/b", "/**\\a", "/x**\\/y", "/x/a**\\/y", "/x/?**\\/y",
	"/x\\/**\\/y", "**\\/**\\/b", "d/**\\/", "/**\\/", "**/\\**/b", "a\\**\\/b",
	// Bracket expressions.
	"[ab]", "[!ab]", "[^ab]", "x[a-c]y", "x[!a-c]y", "x[^a-c]y", "x[]]y", "x[!]]y", "x[^]]y",
	"x[]a]y", "x[]-]y", "x[-a]y", "x[a-]y", "x[--0]y", "x[a-]]y", "x[c-a]y", "x[c-a-e]y",
	"x[z-a]y", "x[a-a]y", "x[\\]]y", "x[\\]-a]y", "x[a\\-c]y", "x[\\a-\\c]y", "x[[]y", "x[[:]y",
	"x[[:]:]]y", "x[[:a]:]]y", "x[[::]]y", "x[[:alpha:]]y", "x[[:digit:]]y", "x[[:alnum:]]y",
	"x[[:upper:]]y", "x[[:lower:]]y", "x[[:space:]]y", "x[[:blank:]]y", "x[[:punct:]]y",
	"x[[:xdigit:]]y", "x[[:cntrl:]]y", "x[[:graph:]]y", "x[[:print:]]y", "x[[:nope:]]y",
	"x[[:ALPHA:]]y", "x[![:alpha:]]y", "x[[:alpha:]-]y", "x[[:alpha:]-z]y", "x[a-[:digit:]]y",
	"x[[:upper:][:digit:]]y", "x[[:alpha:]]]y", "x[[=a=]]y", "x[[.a.]]y", "x[ab", "x[", "[",
	"]", "[]", "[!]", "[]]", "[!]]", "x[!x]y", "x[\\x]y", "x[\\", "x[a-", "x[a-\\", "x[a-\\]]y",
	"[a]", "\\[a]", "[[]a]", "[[]a\\]", "[ad]/b", "/[a-e]/b", "[!d]/*", "*[!o]", "[.]o", "*.[oa]",
	"x[/]y", "x/[z]/y", "x[^/]*", "[#]a", "[!]a", "[*]", "[?]", "x[\xe9]y", "x[\x80-\xff]y",
	// Escapes, spaces, "#" and "!".
	"\\#a", "#a", "\\!a", "!a", "!!a", "\\!!a", "\\*", "\\?", "a\\*", "\\a", "\\\\", "a\\\\", "a\\",
	"x\\y", "x\\\\y", "a\\ b", "a b", "a ", "a\\ ", "a\\  ", "a \\ ", " a", "\\ a", "a\t", "x\ty",
	"   ", "\\ ", "#", "\\#", "!", "\\!", "!#a", "!\\#a", "\\#d/", "\\!d/", "sp d/", "sp\\ d/",
	"sub/a b", "sub/a\\ b", "a\\/b", "ax\\/b", "d\\/e\\/b",
	// Groups: the last line wins, and nothing re-includes below an excluded directory.
	"*.o\n!x.o", "!x.o\n*.o", "*\n!a", "*\n!*/", "*\n!*/\n!*.o", "d/\n!d/a", "d/\n!d/foo/",
	"d/*\n!d/foo/", "d/*\n!d/foo/\nd/foo/*\n!d/foo/bar", "/*\n!/d\n/d/*\n!/d/e", "**/e/\n!**/e/b",
	"e/\n!e/d/\n!e/d/b", "*.o\n!d/**/x.o", "d/**\n!d/e/", "d/**\n!d/e/**", "d/**\n!d/**/",
	"x\n!x/y", "x/*\n!x/z", "x/**/y\n!x/z/**", "sub/\n!sub/a", "!sub/a\nsub/", "tmp/\n!sub/tmp/",
	"foo\n!foo/", "foo/\n!foo", "a*\n!ab\na?", "[ab]*\n![!a]*", "**\n!**/", "*\n!/d/\n!/d/e/\n!/d/e/b",
	"deep/**/c\n!deep/a/b/c/d", "#a\n\\#a\n!\\#a", "a \na\\ \n!a",
}

// TestDifferentialCorpus checks every entry of corpusPatterns against git
// check-ignore on corpusTree, each in its own directory.
func TestDifferentialCorpus(t *testing.T) {
	n := runCorpus(t, corpusPatterns)
	t.Logf("compared %d paths under %d ignore files with git check-ignore", n, len(corpusPatterns))
}

// TestDifferentialGenerated checks random patterns, drawn from the pieces
// of the pattern language, against git check-ignore on corpusTree.
func TestDifferentialGenerated(t *testing.T) {
	count := 400
	if testing.Short() {
		count = 40
	}
	rng := rand.New(rand.NewPCG(7, 11))
	files := make([]string, count)
	for i := range files {
		files[i] = randomPatterns(rng)
	}
	n := runCorpus(t, files)
	t.Logf("compared %d paths under %d generated ignore files with git check-ignore", n, count)
}

// runCorpus writes each of ignores as the .gitignore of a directory of its
// own holding corpusTree, compares every path with git, and returns how
// many it compared.
func runCorpus(t *testing.T, ignores []string) int {
	t.Helper()
	env := isolateGit(t)
	dir := t.TempDir()
	// The files are hard links to one empty file: the tree is written
	// hundreds of times, and a link costs one system call.
	empty := filepath.Join(t.TempDir(), "empty")
	writeFile(t, empty, "")
	var dirs, files []string
	for _, p := range corpusTree {
		for d := path.Dir(strings.TrimSuffix(p, "/")); d != "."; d = path.Dir(d) {
			dirs = append(dirs, d)
		}
		if d, ok := strings.CutSuffix(p, "/"); ok {
			dirs = append(dirs, d)
		} else {
			files = append(files, p)
		}
	}
	slices.Sort(dirs) // parents first
	dirs = slices.Compact(dirs)
	for i, content := range ignores {
		sub := filepath.Join(dir, fmt.Sprintf("p%03d", i))
		writeFile(t, filepath.Join(sub, ".gitignore"), content+"\n")
		for _, d := range dirs {
			if err := os.Mkdir(filepath.Join(sub, filepath.FromSlash(d)), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		for _, f := range files {
			if err := os.Link(empty, filepath.Join(sub, filepath.FromSlash(f))); err != nil {
				t.Fatal(err)
			}
		}
	}
	initRepo(t, dir, 2)
	m, err := New(dir)
	if err != nil {
		t.Fatal(err)
	}
	verdicts := compareCheckIgnore(t, env, m, dir, "")
	compareWalk(t, env, m, dir, verdicts)
	return len(verdicts)
}

// patternPieces are what randomPatterns builds patterns from.
var patternPieces = []string{
	"a", "b", "x", "y", "d", "e", "foo", "o", ".", ".o", " ", "#", "!", "-", "]",
	"*", "*", "**", "***", "?", "/", "/", "/", "**/", "/**",
	"[ab]", "[!a]", "[^b]", "[a-c]", "[c-a]", "[]a]", "[!]]", "[a-]", "[-x]", "[\\]]", "[[]", "[[:]",
	"[[:alpha:]]", "[[:digit:]]", "[[:space:]]", "[[:punct:]]", "[![:upper:]]", "[[:lower:]-]",
	"[[:nope:]]", "[", "[a", "\\*", "\\?", "\\[", "\\ ", "\\\\", "\\#", "\\!", "\\a", "\\/", "\\",
	"**\\/", "\\*\\*", "*\\/",
}

// randomPatterns returns an ignore file of one to three random lines.
func randomPatterns(rng *rand.Rand) string {
	var lines []string
	for range 1 + rng.IntN(3) {
		var b strings.Builder
		switch rng.IntN(8) {
		case 0:
			b.WriteByte('!')
		case 1:
			b.WriteByte('/')
		}
		for range 1 + rng.IntN(5) {
			b.WriteString(patternPieces[rng.IntN(len(patternPieces))])
		}
		switch rng.IntN(8) {
		case 0:
			b.WriteByte('/')
		case 1:
			b.WriteString("  ")
		}
		lines = append(lines, b.String())
	}
	return strings.Join(lines, "\n")
}
