package gittools

import (
	"strconv"
	"strings"
	"testing"

	"github.com/grove-mcp/grove/gittools/internal/blame"

	"github.com/grove-mcp/grove/gittools/internal/diff"

	"github.com/grove-mcp/grove/gittools/internal/repo"

	"github.com/google/go-cmp/cmp"
)

func TestShowMatchesGit(t *testing.T) {
	f := historyFixture(t)
	f.write("bin.dat", "\x00binary")
	f.commit("add binary\n\nwith a body\n\n  indented line")
	r, sc := f.repos()
	root := strings.TrimSpace(f.git("rev-list", "--max-parents=0", "HEAD"))
	for _, rev := range []string{"HEAD", "HEAD~1", "HEAD~2", root, root[:10], "feature"} {
		t.Run(rev, func(t *testing.T) {
			res, _, err := r.showTool(testCtx(t), nil, sc, diff.ShowArgs{Revision: rev})
			if err != nil {
				t.Fatal(err)
			}
			want := f.git("show", "--no-renames", "--no-color", "--format=medium", "--date=default", rev)
			if diff := cmp.Diff(want, resultText(res)); diff != "" {
				t.Errorf("show mismatch (-git +grove):\n%s", diff)
			}
		})
	}
}

func TestExactRenamesMatchGit(t *testing.T) {
	f := historyFixture(t)
	f.git("mv", "README", "README.md")
	f.git("commit", "-q", "-m", "staged rename")
	f.git("mv", "other.txt", "docs.txt")
	r, sc := f.repos()
	res, _, err := r.showTool(testCtx(t), nil, sc, diff.ShowArgs{Revision: "HEAD~3"})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(f.git("show", "HEAD~3"), resultText(res)); diff != "" {
		t.Errorf("show of a rename (-git +grove):\n%s", diff)
	}
	for _, in := range []diff.DiffArgs{{Target: "HEAD~1..HEAD"}, {Staged: true}} {
		res, _, err := r.diffTool(testCtx(t), nil, sc, in)
		if err != nil {
			t.Fatal(err)
		}
		args := []string{"diff", "HEAD~1", "HEAD"}
		if in.Staged {
			args = []string{"diff", "--cached"}
		}
		if diff := cmp.Diff(f.git(args...), resultText(res)); diff != "" {
			t.Errorf("diff %+v with renames (-git +grove):\n%s", in, diff)
		}
	}
}

func TestShowFile(t *testing.T) {
	f := historyFixture(t)
	f.write("bin.dat", "\x00binary")
	f.commit("add binary")
	r, sc := f.repos()
	res, out, err := r.showTool(testCtx(t), nil, sc, diff.ShowArgs{Revision: "HEAD~3", Path: "src/a.go"})
	if err != nil {
		t.Fatal(err)
	}
	if want := f.git("show", "HEAD~3:src/a.go"); resultText(res) != want || out.Content != want {
		t.Errorf("content = %q, want %q", resultText(res), want)
	}
	res, out, err = r.showTool(testCtx(t), nil, sc, diff.ShowArgs{Revision: "HEAD", Path: "bin.dat"})
	if err != nil {
		t.Fatal(err)
	}
	if !out.Binary || out.Content != "" || !strings.Contains(resultText(res), "binary file (7 bytes)") {
		t.Errorf("binary file: out=%+v text=%q", out, resultText(res))
	}
	if _, _, err := r.showTool(testCtx(t), nil, sc, diff.ShowArgs{Revision: "HEAD", Path: "missing.txt"}); err == nil {
		t.Error("missing path: no error")
	}
}

func TestBlameMatchesGit(t *testing.T) {
	f := historyFixture(t)
	r, sc := f.repos()
	for _, tt := range []struct {
		path, rev  string
		start, end int
	}{
		{"src/a.go", "", 0, 0},
		{"src/a.go", "feature", 0, 0},
		{"src/bee.go", "", 0, 0},
		{"src/a.go", "", 2, 3},
	} {
		t.Run(tt.path+"@"+tt.rev, func(t *testing.T) {
			_, out, err := r.blameTool(testCtx(t), nil, sc, blame.BlameArgs{Path: tt.path, Revision: tt.rev, StartLine: tt.start, EndLine: tt.end})
			if err != nil {
				t.Fatal(err)
			}
			args := []string{"blame", "--porcelain"}
			if tt.start > 0 {
				args = append(args, "-L", strconv.Itoa(tt.start)+","+strconv.Itoa(tt.end))
			}
			rev := tt.rev
			if rev == "" {
				rev = "HEAD"
			}
			want := porcelainBlame(f.git(append(args, rev, "--", tt.path)...))
			got := []string{}
			for _, l := range out.Lines {
				got = append(got, l.Commit+" "+strconv.Itoa(l.Line)+" "+l.Text)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("blame mismatch (-git +grove):\n%s", diff)
			}
		})
	}
}

// porcelainBlame reduces `git blame --porcelain` to "commit line text" per line.
func porcelainBlame(s string) []string {
	out := []string{}
	var cur []string
	for _, l := range strings.Split(s, "\n") {
		switch {
		case strings.HasPrefix(l, "\t"):
			out = append(out, cur[0]+" "+cur[2]+" "+l[1:])
		case len(l) > 40 && repo.IsHex(l[:40]):
			cur = strings.Fields(l)
		}
	}
	return out
}
