package gittools

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/grove-mcp/grove/gittools/internal/diff"

	"github.com/google/go-cmp/cmp"
)

// diffFixture has a committed history and then worktree and index changes of every kind.
func diffFixture(t testing.TB) *fixture {
	f := newFixture(t)
	var long strings.Builder
	for i := range 60 {
		long.WriteString("line " + strconv.Itoa(i) + "\n")
	}
	f.write("a.txt", "one\ntwo\nthree\n", "long.txt", long.String(), "gone.txt", "bye\n",
		"code.go", "package main\n\nfunc main() {\n\tx := 1\n\ty := 2\n\tz := 3\n\tprintln(x, y, z)\n}\n",
		"bin.dat", "\x00\x01\x02", "noeol.txt", "last")
	f.commit("initial")
	f.write("a.txt", "one\nTWO\nthree\nfour\n", "added.txt", "new\n")
	f.commit("second")
	// worktree and index changes
	f.write("long.txt", strings.Replace(strings.Replace(long.String(), "line 5\n", "line five\n", 1), "line 50\n", "", 1))
	f.write("code.go", "package main\n\nfunc main() {\n\tx := 1\n\ty := 20\n\tz := 3\n\tprintln(x, y, z)\n}\n")
	f.write("bin.dat", "\x00\x01\x03", "noeol.txt", "last line", "staged.txt", "s\n")
	f.git("add", "staged.txt", "noeol.txt")
	f.write("noeol.txt", "last line\n")
	os.Remove(filepath.Join(f.dir, "gone.txt"))
	os.Chmod(filepath.Join(f.dir, "a.txt"), 0o755)
	return f
}

func TestDiffMatchesGit(t *testing.T) {
	f := diffFixture(t)
	r, sc := f.repos()
	zero, five := 0, 5
	for _, tt := range []struct {
		name string
		in   diff.DiffArgs
		git  []string
	}{
		{"worktree", diff.DiffArgs{}, nil},
		{"staged", diff.DiffArgs{Staged: true}, []string{"--cached"}},
		{"range", diff.DiffArgs{Target: "HEAD~1..HEAD"}, []string{"HEAD~1", "HEAD"}},
		{"range reversed", diff.DiffArgs{Target: "HEAD..HEAD~1"}, []string{"HEAD", "HEAD~1"}},
		{"target vs worktree", diff.DiffArgs{Target: "HEAD~1"}, []string{"HEAD~1"}},
		{"context 0", diff.DiffArgs{ContextLines: &zero}, []string{"-U0"}},
		{"context 5", diff.DiffArgs{ContextLines: &five}, []string{"-U5"}},
		{"path", diff.DiffArgs{Path: "long.txt"}, []string{"--", "long.txt"}},
		{"path absolute", diff.DiffArgs{Path: f.dir + "/code.go"}, []string{"--", "code.go"}},
		{"path deleted file", diff.DiffArgs{Path: "gone.txt"}, []string{"--", "gone.txt"}},
		{"path staged", diff.DiffArgs{Staged: true, Path: "noeol.txt"}, []string{"--cached", "--", "noeol.txt"}},
		{"path target", diff.DiffArgs{Target: "HEAD~1", Path: "a.txt"}, []string{"HEAD~1", "--", "a.txt"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res, _, err := r.diffTool(testCtx(t), nil, sc, tt.in)
			if err != nil {
				t.Fatal(err)
			}
			want := f.git(append([]string{"diff", "--no-renames", "--no-color", "--no-ext-diff"}, tt.git...)...)
			if want == "" {
				want = "no changes\n"
			}
			if diff := cmp.Diff(want, resultText(res)); diff != "" {
				t.Errorf("diff mismatch (-git +grove):\n%s", diff)
			}
		})
	}
}

func TestDiffStatOnly(t *testing.T) {
	f := diffFixture(t)
	r, sc := f.repos()
	_, out, err := r.diffTool(testCtx(t), nil, sc, diff.DiffArgs{StatOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][2]int{}
	for _, fl := range out.Files {
		got[fl.Path] = [2]int{fl.Added, fl.Deleted}
	}
	want := map[string][2]int{}
	for _, l := range strings.Split(strings.TrimSpace(f.git("diff", "--numstat")), "\n") {
		var a, d int
		var p string
		if strings.HasPrefix(l, "-\t-\t") {
			p = strings.TrimPrefix(l, "-\t-\t")
		} else {
			fields := strings.Split(l, "\t")
			a, d, p = atoi(fields[0]), atoi(fields[1]), fields[2]
		}
		want[p] = [2]int{a, d}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("numstat mismatch (-git +grove):\n%s", diff)
	}
	if out.Patch != "" {
		t.Error("stat_only returned a patch")
	}
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
	}
	return n
}

func TestDiffCap(t *testing.T) {
	f := newFixture(t)
	f.write("x", "")
	f.commit("initial")
	for i := range 30 {
		f.write("f"+strconv.Itoa(i)+".txt", strings.Repeat("some text that takes room\n", 200))
	}
	f.commit("big")
	r, sc := f.repos()
	res, out, err := r.diffTool(testCtx(t), nil, sc, diff.DiffArgs{Target: "HEAD~1..HEAD"})
	if err != nil {
		t.Fatal(err)
	}
	text := resultText(res)
	if !out.Truncated || len(text) > diff.MaxPatchBytes+4096 || !strings.Contains(text, "pass path") {
		t.Errorf("truncated=%v len=%d, want a cut patch with a note", out.Truncated, len(text))
	}
	if len(out.Files) != 31 && len(out.Files) != 30 {
		t.Errorf("files = %d, want every changed file listed", len(out.Files))
	}
}
