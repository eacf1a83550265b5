package gittools

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/grove-mcp/grove/gittools/internal/diff"
)

// cFile is a C file whose hunk headers need the cpp rule (labels are not functions).
const cFile = "#include <stdio.h>\n\nstatic int f(int x)\n{\n\tint y = 0;\n\tif (x)\n\t\tgoto out;\n\ty = 1;\n\ty = 2;\n\ty = 3;\nout:\n\ty += x;\n\ty += 2;\n\ty += 3;\n\treturn y;\n}\n"

// perlFile and pyFile need the perl and python rules.
const (
	perlFile = "package Foo;\n\nsub get_file($$$) {\n\tmy $v = 0;\n\tmy $w = 0;\n\tmy $x = 1;\n\tmy $y = 2;\n\tmy $z = 3;\n\treturn $x;\n}\n\n" +
		"sub plain {\n\tmy $q = 0;\n\tmy $r = 0;\n\tmy $s = 0;\n\tmy $a = 1;\n\tmy $b = 2;\n\tmy $c = 3;\n\treturn $a;\n}\n"
	pyFile = "import os\n\nclass P4Submit(Command):\n    def edit_template(self, f):\n        a = 1\n        b = 2\n        c = 3\n        return a\n\n" +
		"    async def run(self):\n        u = 0\n        v = 0\n        w = 0\n        x = 1\n        y = 2\n        z = 3\n        return x\n"
)

// gitTrueFixture commits files of every kind, then changes each of them in a second commit: a rename with
// edits, a mode change, a type change, binary files (by content and by attribute), quoted paths, CRLF, a
// missing final newline, a gitlink, sliders over blank lines and closing braces, a moved block.
func gitTrueFixture(t *testing.T) *fixture {
	f := newFixture(t)
	var long, moved strings.Builder
	for i := range 40 {
		fmt.Fprintf(&long, "line %d of a file long enough that an edited copy is still similar\n", i)
	}
	for i := range 12 {
		fmt.Fprintf(&moved, "func f%d() {\n\treturn\n}\n\n", i)
	}
	f.write(".gitattributes", "*.c diff=cpp\n*.bin -diff\n*.perl diff=perl\n*.py diff=python\n", "t.perl", perlFile, "t.py", pyFile,
		"old name.txt", long.String(), "script.sh", "echo hi\n", "crlf.txt", "a\r\nb\r\nc\r\n",
		"noeol.txt", "x\ny", "bin.dat", "\x00\x01\x02", "attr.bin", "plain text\n", "tab\there.txt", "t\n",
		"é.txt", "e\n", "sp é\tx.txt", "s\n", "gone.txt", "bye\n", "typechange", "file\n", "f.c", cFile, "moved.go", moved.String(),
		"slide.txt", "a\n}\n\nb\n}\n\nc\n}\n")
	if err := os.Mkdir(filepath.Join(f.dir, "sub"), 0o755); err != nil { // a submodule not checked out
		t.Fatal(err)
	}
	f.git("update-index", "--add", "--cacheinfo", "160000,1111111111111111111111111111111111111111,sub")
	f.commit("one")
	edited := strings.Replace(long.String(), "line 7 ", "line seven ", 1) + "one more line\n"
	os.Remove(filepath.Join(f.dir, "old name.txt"))
	os.Remove(filepath.Join(f.dir, "gone.txt"))
	os.Remove(filepath.Join(f.dir, "typechange"))
	if err := os.Symlink("crlf.txt", filepath.Join(f.dir, "typechange")); err != nil {
		t.Fatal(err)
	}
	os.Chmod(filepath.Join(f.dir, "script.sh"), 0o755)
	blocks := strings.SplitAfter(moved.String(), "\n\n")
	f.write("new name.txt", edited, "crlf.txt", "a\r\nB\r\nc\r\n", "noeol.txt", "x\nz", "bin.dat", "\x00\x01\x03",
		"attr.bin", "plain text, changed\n", "tab\there.txt", "t\nu\n", "é.txt", "é\n", "sp é\tx.txt", "s\nt\n",
		"f.c", strings.Replace(cFile, "\ty += 2;\n", "\ty += 22;\n", 1),
		"t.perl", strings.NewReplacer("$y = 2", "$y = 22", "$c = 3", "$c = 33").Replace(perlFile),
		"t.py", strings.NewReplacer("c = 3", "c = 33", "z = 3", "z = 33").Replace(pyFile),
		"moved.go", strings.Join(append(append([]string{blocks[7]}, blocks[:7]...), blocks[8:]...), ""),
		"slide.txt", "a\n}\n\nb\n}\n\nx\n}\n\nc\n}\n")
	f.git("update-index", "--add", "--cacheinfo", "160000,2222222222222222222222222222222222222222,sub")
	f.commit("two")
	return f
}

func TestDiffGitTrue(t *testing.T) {
	f := gitTrueFixture(t)
	r, sc := f.repos()
	res, _, err := r.diffTool(testCtx(t), nil, sc, diff.DiffArgs{Target: "HEAD~1..HEAD"})
	if err != nil {
		t.Fatal(err)
	}
	want := f.git("diff", "HEAD~1", "HEAD")
	if d := cmp.Diff(want, resultText(res)); d != "" {
		t.Errorf("git_diff mismatch (-git +grove):\n%s", d)
	}
	res, _, err = r.showTool(testCtx(t), nil, sc, diff.ShowArgs{Revision: "HEAD"})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(f.git("show", "HEAD"), resultText(res)); d != "" {
		t.Errorf("git_show mismatch (-git +grove):\n%s", d)
	}
}

// randomEdit rewrites a few lines of text: lines from an alphabet of sliders (blank lines, braces, repeated
// statements) replaced, inserted or deleted, blocks duplicated.
func randomEdit(r *rand.Rand, text string) string {
	alphabet := []string{"\n", "\n", "}\n", "\t}\n", "{\n", "\tx++;\n", "\t\treturn;\n", "int f(void)\n", "end\n"}
	lines := strings.SplitAfter(text, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	for range 1 + r.IntN(4) {
		i := r.IntN(len(lines) + 1)
		switch r.IntN(4) {
		case 0:
			lines = append(lines[:i], lines[min(i+1+r.IntN(3), len(lines)):]...)
		case 1:
			lines = append(lines[:i], append([]string{alphabet[r.IntN(len(alphabet))], fmt.Sprintf("new %d\n", r.IntN(1000))}, lines[i:]...)...)
		case 2:
			j := max(0, i-1-r.IntN(4))
			lines = append(lines[:i], append(append([]string(nil), lines[j:i]...), lines[i:]...)...)
		default:
			if i < len(lines) {
				lines[i] = alphabet[r.IntN(len(alphabet))]
			}
		}
	}
	return strings.Join(lines, "")
}

// TestDiffRandomEditsMatchGit edits files at random for many rounds, staging some of the changes, and
// compares the worktree and staged diffs with `git diff` and `git diff --cached` after each round.
func TestDiffRandomEditsMatchGit(t *testing.T) {
	f := newFixture(t)
	r := rand.New(rand.NewPCG(20, 1))
	names := []string{"a.c", "b.txt", "dir/c.go", "dir/d.md"}
	texts := map[string]string{}
	for _, n := range names {
		var b strings.Builder
		for range 30 + r.IntN(50) {
			b.WriteString([]string{"{\n", "\tx++;\n", "}\n", "\n", "int f(void)\n", "\t\treturn;\n"}[r.IntN(6)])
		}
		texts[n] = b.String()
		f.write(n, texts[n])
	}
	f.commit("base")
	repos, sc := f.repos()
	total, same := 0, 0
	for round := range 40 {
		for _, n := range names {
			if r.IntN(2) == 0 {
				texts[n] = randomEdit(r, texts[n])
				f.write(n, texts[n])
			}
		}
		if r.IntN(3) == 0 {
			f.git("add", names[r.IntN(len(names))])
		}
		for _, staged := range []bool{false, true} {
			res, _, err := repos.diffTool(testCtx(t), nil, sc, diff.DiffArgs{Staged: staged})
			if err != nil {
				t.Fatal(err)
			}
			args := []string{"diff"}
			if staged {
				args = append(args, "--cached")
			}
			want := f.git(args...)
			if want == "" {
				want = "no changes\n"
			}
			total++
			if got := resultText(res); got == want {
				same++
			} else if total-same <= 2 {
				t.Logf("round %d staged=%v: mismatch (-git +grove):\n%s", round, staged, cmp.Diff(want, got))
			}
		}
	}
	if same*100 < total*99 {
		t.Errorf("%d of %d diffs identical to git's, want at least 99 %%", same, total)
	}
}

// TestDiffAbbrevLength checks the index lines' hash length in a repository of more than 2^14 packed
// objects, where git's automatic length is 8.
func TestDiffAbbrevLength(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 17,000 objects")
	}
	f := newFixture(t)
	var in strings.Builder
	for i := range 17000 {
		data := fmt.Sprintf("blob %d\n", i)
		fmt.Fprintf(&in, "blob\ndata %d\n%s\n", len(data), data)
	}
	cmd := f.Cmd("fast-import", "--quiet")
	cmd.Stdin = strings.NewReader(in.String())
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git fast-import: %v\n%s", err, out)
	}
	f.write("a.txt", "one\n")
	f.commit("one")
	f.write("a.txt", "two\n", "b.txt", "new\n")
	f.commit("two")
	r, sc := f.repos()
	res, _, err := r.diffTool(testCtx(t), nil, sc, diff.DiffArgs{Target: "HEAD~1..HEAD"})
	if err != nil {
		t.Fatal(err)
	}
	want := f.git("diff", "HEAD~1", "HEAD")
	if !strings.Contains(want, "index 00000000..") {
		t.Fatalf("git did not abbreviate to 8 digits; the fixture is wrong:\n%s", want)
	}
	if d := cmp.Diff(want, resultText(res)); d != "" {
		t.Errorf("git_diff mismatch (-git +grove):\n%s", d)
	}
}
