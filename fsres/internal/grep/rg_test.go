package grep

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/grove-mcp/grove/ignore"
)

// rgPatterns are searched in the generated tree by both ripgrep and the
// engine; each must find the same lines.
var rgPatterns = []struct {
	expr string
	o    Options
}{
	{expr: `strbuf_addf`},
	{expr: `xmalloc\(`},
	{expr: `TODO|FIXME`},
	{expr: `TODO|FIXME|XXX|HACK`},
	{expr: `[a-z]+_release\(&`},
	{expr: `(?i)deprecated`},
	{expr: `deprecated`, o: Options{CaseInsensitive: true}},
	{expr: `\bstatic inline\b`},
	{expr: `^#include <`},
	{expr: `^#include`},
	{expr: `\{$`},
	{expr: `^\}$`},
	{expr: `\breturn\b`},
	{expr: `_t\b`},
	{expr: `;$`},
	{expr: `^$`},
	{expr: `^`},
	{expr: `^\s*$`},
	{expr: `\s+$`},
	{expr: `^\t+return`},
	{expr: `x$`},
	{expr: `(?s)a.b`},
	{expr: `[^a-z]{3}z`},
	{expr: `[A-Z]{6,}_[0-9]+`},
	{expr: `\d{4,}`},
	{expr: `zqxj_never_there`},
	{expr: `return`},
	{expr: `(?i)strbuf`},
	{expr: `(?i)kelvin`},
	{expr: `(?i)straße`},
	{expr: `héllo`},
	{expr: `日本`},
	{expr: `wörld$`},
	{expr: `(?i)HÉLLO`},
	{expr: `a.c`},
	{expr: `(foo|bar)baz`},
	{expr: `(?i)(foo|bar)_?baz`},
	{expr: `free`, o: Options{Word: true}},
	{expr: `#include`, o: Options{Word: true}},
	{expr: `a.b(c`, o: Options{FixedStrings: true}},
	{expr: `x*`},
	{expr: `no newline at end`},
	{expr: `\r`},
	{expr: `crlf line$`},
	{expr: `crlf`},
	{expr: `(?m)^end$`},
	{expr: `.{200,}`},
	{expr: `secret|ignored|kept`},
	{expr: `workflow`},
	{expr: `binary text`},
	{expr: `strbuf_addf\(&\w+, "`},
	{expr: `\{\n\tstrbuf`, o: Options{Multiline: true}},
	{expr: `crlf line\r\nsecond`, o: Options{Multiline: true}},
	{expr: `^\}\n\n`, o: Options{Multiline: true}},
	{expr: `(?s)TODO.*?\*/`, o: Options{Multiline: true}},
	{expr: `return`, o: Options{Multiline: true}},
	{expr: `at end\z`, o: Options{Multiline: true}},
}

func TestMatchesRipgrep(t *testing.T) {
	rg, err := exec.LookPath("rg")
	if err != nil {
		if testing.Short() {
			t.Skip("ripgrep (rg) is not installed")
		}
		t.Fatal("this test compares with ripgrep: install it (apt-get install -y ripgrep; .ci/run does)")
	}
	dir := rgTree(t)
	files := walkFiles(t, dir)
	for _, tt := range rgPatterns {
		t.Run(fmt.Sprintf("%s%+v", tt.expr, tt.o), func(t *testing.T) {
			want := ripgrepLines(t, rg, dir, tt.expr, tt.o)
			got := engineLines(t, dir, files, tt.expr, tt.o)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("lines mismatch (-rg +grove):\n%s", diff)
			}
		})
	}
}

// rgTree writes a tree with nested .gitignore files, dot-directories,
// binary files, CRLF files, files without a final newline and non-ASCII
// text, plus generated C-like sources.
func rgTree(t *testing.T) string {
	dir := t.TempDir()
	files := map[string]string{
		".gitignore":                "*.log\nbuild/\n!keep.log\n",
		"keep.log":                  "kept log line\n",
		"drop.log":                  "ignored log line\n",
		"build/out.c":               "ignored build output strbuf_addf\n",
		".github/workflows/ci.yml":  "name: ci\n# a workflow with TODO\non: push\n",
		".hidden":                   "hidden file with FIXME\n",
		"sub/.gitignore":            "secret*\n/local.txt\n",
		"sub/secret.txt":            "secret stuff\n",
		"sub/local.txt":             "local ignored\n",
		"sub/deeper/local.txt":      "not ignored: only /local.txt at sub's top; kept\n",
		"sub/deeper/.gitignore":     "!secret.txt\n",
		"sub/deeper/secret.txt":     "secret re-included\n",
		"crlf.txt":                  "first crlf line\r\nsecond crlf line\r\nx\r\nend\r\n",
		"nonl.txt":                  "line one\nno newline at end",
		"empty.txt":                 "",
		"blank.txt":                 "\n\n\n",
		"unicode.txt":               "héllo wörld\nHÉLLO WÖRLD\n日本語のテキスト\nStraße STRASSE\n\u212aelvin and kelvin\nſtrbuf long s\n",
		"long.txt":                  strings.Repeat("abc ", 120) + "strbuf_addf at the end\n" + strings.Repeat("é", 200) + "\n",
		"bin/data.bin":              "\x00\x01binary text strbuf_addf\n",
		"bin/late.bin":              "binary text before a NUL\n\x00 strbuf_addf\n",
		"misc.txt":                  "foobaz barbaz foo_baz BAR_BAZ\na.b(c and a-b(c\naxb\nzzz 123z\n2024-01-01 12345\nend\n",
		".config/tool/settings.ini": "x=1\ndeprecated=true\n",
	}
	for name, content := range files {
		writeFile(t, filepath.Join(dir, name), content)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 60 {
		writeFile(t, filepath.Join(dir, "src", fmt.Sprintf("d%d", i%7), fmt.Sprintf("f%02d.c", i)), cSource(r, 80+r.IntN(200)))
	}
	return dir
}

func writeFile(t *testing.T, name, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// cSource makes n lines that look like git's C code.
func cSource(r *rand.Rand, n int) string {
	lines := []string{
		"#include <stdio.h>", "#include \"cache.h\"", "static inline int f(void)", "{",
		"\tstrbuf_addf(&sb, \"%s\", name);", "\tstrbuf_release(&sb);", "\tstring_list_clear(&list, 0);",
		"\tp = xmalloc(sizeof(*p));", "\treturn 0;", "}", "", "/* TODO: remove this */",
		"\t/* FIXME: deprecated */", "\tif (x) {", "\t} else {", "\t\tfree(buf);", "int static_inline_x;",
		"\tSTATIC_INLINE(x);", "\t/* DEPRECATED_MACRO_1234 */", "\tfoo = bar;\t ", "\treturn free_list(&l);",
		"\t\treturn -1;", "#define MAX_SIZE 4096", "\tchar *a_b = \"a.b\";",
	}
	var b strings.Builder
	for range n {
		b.WriteString(lines[r.IntN(len(lines))])
		b.WriteByte('\n')
	}
	return b.String()
}

// walkFiles lists the files the grep tool would search: the regular,
// non-ignored files, in walk order.
func walkFiles(t *testing.T, dir string) []string {
	m, err := ignore.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	err = m.Walk(context.Background(), func(rel string, d fs.DirEntry) error {
		if d.Type().IsRegular() {
			files = append(files, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// rgLine is one matching line as both tools report it.
type rgLine struct {
	Path string
	N    int
	Text string
}

func ripgrepLines(t *testing.T, rg, dir, expr string, o Options) map[rgLine]bool {
	args := []string{"--no-config", "--hidden", "--no-require-git", "-n", "--no-heading", "--with-filename", "--color", "never"}
	for flag, on := range map[string]bool{"-i": o.CaseInsensitive, "-F": o.FixedStrings, "-w": o.Word, "-U": o.Multiline} {
		if on {
			args = append(args, flag)
		}
	}
	cmd := exec.Command(rg, append(args, "-e", expr)...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 1 && stderr.Len() == 0 {
		err = nil
	}
	if err != nil {
		t.Fatalf("rg %q: %v: %s", expr, err, stderr.String())
	}
	got := map[rgLine]bool{}
	for line := range strings.SplitSeq(strings.TrimSuffix(string(out), "\n"), "\n") {
		if line == "" {
			continue
		}
		path, rest, _ := strings.Cut(line, ":")
		num, text, _ := strings.Cut(rest, ":")
		n, err := strconv.Atoi(num)
		if err != nil {
			t.Fatalf("rg output %q", line)
		}
		got[rgLine{path, n, clip([]byte(strings.TrimSuffix(text, "\r")))}] = true
	}
	return got
}

func engineLines(t *testing.T, dir string, files []string, expr string, o Options) map[rgLine]bool {
	p, err := Compile(expr, o)
	if err != nil {
		t.Fatal(err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	res, err := Search(context.Background(), Request{Pattern: p, Max: 1 << 20, MaxFileSize: 1 << 20}, listTree(root, files))
	if err != nil {
		t.Fatal(err)
	}
	got := map[rgLine]bool{}
	for _, h := range res.Files {
		for _, l := range h.Lines {
			if l.Match {
				got[rgLine{h.Rel, l.N, l.Text}] = true
			}
		}
	}
	return got
}

// listTree is a Tree of the given files below root.
func listTree(root *os.Root, files []string) Tree {
	return Tree{
		Walk: func(ctx context.Context, visit func(string) error) error {
			for _, f := range files {
				if err := visit(f); err != nil {
					return err
				}
			}
			return nil
		},
		NewOpener: DirOpener(root, "."),
	}
}
