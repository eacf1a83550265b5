package gittools

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/grove-mcp/grove/gittools/internal/blame"

	"github.com/grove-mcp/grove/gittools/internal/repo"

	"github.com/google/go-cmp/cmp"

	"github.com/grove-mcp/grove/gittools/internal/gen"
	"github.com/grove-mcp/grove/roots"
	"github.com/grove-mcp/grove/scope"
)

// gitBlameCommits runs `git blame --porcelain` in dir and returns "commit orig-line final-line path" for every
// line: what the line is blamed on, its number and path there, and its number now.
func gitBlameCommits(t testing.TB, dir, home, rev, path string) []string {
	t.Helper()
	cmd := exec.Command("git", "blame", "--porcelain", rev, "--", path)
	cmd.Dir, cmd.Env = dir, gitEnv(home)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git blame %s %s: %v", rev, path, err)
	}
	got := []string{}
	paths := map[string]string{} // by commit: the path its last "filename" line gave
	var head []string
	for _, l := range strings.Split(string(out), "\n") {
		switch f := strings.Fields(l); {
		case strings.HasPrefix(l, "\t"):
			got = append(got, strings.Join(head, " ")+" "+paths[head[0]])
		case strings.HasPrefix(l, "filename "):
			paths[head[0]] = strings.TrimPrefix(l, "filename ")
		case len(f) >= 3 && (len(f[0]) == 40 || len(f[0]) == 64) && repo.IsHex(f[0]):
			head = f[:3]
		}
	}
	return got
}

// groveBlameCommits blames with git_blame and returns "commit orig-line final-line path" for every line.
func groveBlameCommits(t testing.TB, r *Repos, sc *roots.Scope, rev, path string) []string {
	t.Helper()
	_, out, err := r.blameTool(testCtx(t), nil, sc, blame.BlameArgs{Path: path, Revision: rev})
	if err != nil {
		t.Fatalf("git_blame %s %s: %v", rev, path, err)
	}
	got := []string{}
	for _, l := range out.Lines {
		p := l.OrigPath
		if p == "" {
			p = path
		}
		got = append(got, fmt.Sprintf("%s %d %d %s", l.Commit, l.OrigLine, l.Line, p))
	}
	return got
}

// countMismatches counts lines blamed on different commits (or missing on one side).
func countMismatches(want, got []string) int {
	n := max(len(want), len(got)) - min(len(want), len(got))
	for i := range min(len(want), len(got)) {
		if want[i] != got[i] {
			n++
		}
	}
	return n
}

func TestBlameScenariosMatchGit(t *testing.T) {
	for _, tt := range []struct {
		name  string
		build func(f *fixture) string // returns the path to blame at HEAD
	}{
		{"merge changing different lines", buildMergeBothSides},
		{"merge with conflict resolution", buildEvilMerge},
		{"line moved", func(f *fixture) string {
			f.write("m.txt", "a\nb\nc\nd\ne\nf\n")
			f.commit("add")
			f.write("m.txt", "a\nc\nd\ne\nf\nb\n")
			f.commit("move b")
			return "m.txt"
		}},
		{"deleted and re-created", func(f *fixture) string {
			f.write("d.txt", "one\ntwo\nthree\n", "keep", "k\n")
			f.commit("add")
			must(f.t, os.Remove(filepath.Join(f.dir, "d.txt")))
			f.commit("delete")
			f.write("d.txt", "one\n2\nthree\n")
			f.commit("re-create")
			return "d.txt"
		}},
		{"whole-file rename", func(f *fixture) string {
			f.write("old/name.txt", "l1\nl2\nl3\nl4\n", "other.txt", "o\n")
			f.commit("add")
			f.write("old/name.txt", "l1\nL2\nl3\nl4\n")
			f.commit("edit")
			f.git("mv", "old/name.txt", "renamed.txt")
			f.commit("rename")
			f.write("renamed.txt", "l1\nL2\nl3\nL4\n")
			f.commit("edit after rename")
			return "renamed.txt"
		}},
		{"directory renamed", func(f *fixture) string {
			f.write("lib/x.txt", "x1\nx2\n", "lib/y.txt", "y\n")
			f.commit("add")
			must(f.t, os.Rename(filepath.Join(f.dir, "lib"), filepath.Join(f.dir, "pkg")))
			f.commit("move lib")
			f.write("pkg/x.txt", "x1\nx2\nx3\n")
			f.commit("append")
			return "pkg/x.txt"
		}},
		{"rename with edits", func(f *fixture) string {
			f.write("before.txt", "k1\nk2\nk3\nk4\nk5\n", "gone.txt", "g1\ng2\n")
			f.commit("add")
			must(f.t, os.Remove(filepath.Join(f.dir, "before.txt")))
			must(f.t, os.Remove(filepath.Join(f.dir, "gone.txt")))
			f.write("after.txt", "k1\nk2\nk3\nk4\nK5\n")
			f.commit("rename with an edit")
			return "after.txt"
		}},
		{"rename with too many edits", func(f *fixture) string {
			f.write("before.txt", "k1\nk2\nk3\nk4\nk5\n")
			f.commit("add")
			must(f.t, os.Remove(filepath.Join(f.dir, "before.txt")))
			f.write("after.txt", "k1\nk2\nx3\nx4\nx5\n")
			f.commit("rewrite")
			return "after.txt"
		}},
		{"crlf rename with edits", func(f *fixture) string {
			f.write("c.txt", "c1\r\nc2\r\nc3\r\nc4\r\n")
			f.commit("add")
			must(f.t, os.Remove(filepath.Join(f.dir, "c.txt")))
			f.write("d.txt", "c1\nc2\r\nc3\r\nc4\r\nc5\r\n")
			f.commit("rename")
			return "d.txt"
		}},
		{"copied, not renamed", func(f *fixture) string {
			f.write("a.txt", "a1\na2\n")
			f.commit("add")
			f.write("b.txt", "a1\na2\n")
			f.commit("copy")
			return "b.txt"
		}},
		{"renamed on a merged branch", func(f *fixture) string {
			f.write("r.txt", "r1\nr2\nr3\n")
			f.commit("add")
			f.git("checkout", "-q", "-b", "side")
			f.git("mv", "r.txt", "s.txt")
			f.commit("rename")
			f.git("checkout", "-q", "main")
			f.write("other", "o\n")
			f.commit("other")
			f.Tick++
			f.git("merge", "-q", "--no-ff", "-m", "merge side", "side")
			return "s.txt"
		}},
		{"crlf lines", func(f *fixture) string {
			f.write("w.txt", "a\r\nb\r\nc\r\n")
			f.commit("add")
			f.write("w.txt", "a\r\nb\nc\r\nd\r\n")
			f.commit("edit")
			return "w.txt"
		}},
		{"no trailing newline", func(f *fixture) string {
			f.write("n.txt", "a\nb\nc")
			f.commit("add")
			f.write("n.txt", "a\nb\nc\nd")
			f.commit("append")
			return "n.txt"
		}},
		{"empty file", func(f *fixture) string {
			f.write("e.txt", "")
			f.commit("add")
			return "e.txt"
		}},
		{"sliding blocks", buildSliders},
		{"added on a merged branch", func(f *fixture) string {
			f.write("base.txt", "b\n")
			f.commit("base")
			f.git("checkout", "-q", "-b", "side")
			f.write("new.txt", "n1\nn2\n")
			f.commit("add on side")
			f.git("checkout", "-q", "main")
			f.write("base.txt", "b\nb2\n")
			f.commit("main moves on")
			f.Tick++
			f.git("merge", "-q", "--no-ff", "-m", "merge side", "side")
			return "new.txt"
		}},
		{"made executable", func(f *fixture) string {
			f.write("x.sh", "echo 1\necho 2\n")
			f.commit("add")
			f.git("update-index", "--chmod=+x", "x.sh")
			f.git("commit", "-q", "-m", "chmod")
			f.write("x.sh", "echo 1\necho 2\necho 3\n")
			f.git("update-index", "--chmod=+x", "x.sh")
			f.commit("append")
			return "x.sh"
		}},
		{"file, then directory, then file", func(f *fixture) string {
			f.write("p", "one\ntwo\n")
			f.commit("file")
			must(f.t, os.Remove(filepath.Join(f.dir, "p")))
			f.write("p/inner.txt", "i\n")
			f.commit("directory")
			must(f.t, os.RemoveAll(filepath.Join(f.dir, "p")))
			f.write("p", "one\ntwo\nthree\n")
			f.commit("file again")
			return "p"
		}},
		{"renamed on one branch, edited on the other", func(f *fixture) string {
			f.write("lib/old.txt", "o1\no2\no3\no4\no5\n", "lib/keep.txt", "k\n")
			f.commit("add")
			f.git("checkout", "-q", "-b", "side")
			f.git("mv", "lib/old.txt", "lib/new.txt")
			f.commit("rename")
			f.git("checkout", "-q", "main")
			f.write("lib/old.txt", "o1\nO2\no3\no4\no5\n")
			f.commit("edit")
			f.Tick++
			f.git("merge", "-q", "--no-ff", "-m", "merge side", "side")
			return "lib/new.txt"
		}},
		{"unchanged below a changed sibling directory", func(f *fixture) string {
			f.write("a/b/c/deep.txt", "d1\nd2\n", "a/b/x.txt", "x\n", "a/y.txt", "y\n")
			f.commit("add")
			f.write("a/b/x.txt", "x2\n")
			f.commit("sibling")
			f.write("a/y.txt", "y2\n")
			f.commit("uncle")
			f.write("a/b/c/deep.txt", "d1\nd2\nd3\n")
			f.commit("deep")
			f.write("a/b/c/other.txt", "o\n")
			f.commit("neighbour")
			return "a/b/c/deep.txt"
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			p := tt.build(f)
			r, sc := f.repos()
			want := gitBlameCommits(t, f.dir, f.home, "HEAD", p)
			if diff := cmp.Diff(want, groveBlameCommits(t, r, sc, "", p)); diff != "" {
				t.Errorf("blame mismatch (-git +grove):\n%s", diff)
			}
		})
	}
}

func buildMergeBothSides(f *fixture) string {
	f.write("f.txt", "1\n2\n3\n4\n5\n6\n")
	f.commit("base")
	f.git("checkout", "-q", "-b", "side")
	f.write("f.txt", "1\ntwo\n3\n4\n5\n6\n")
	f.commit("side: two")
	f.git("checkout", "-q", "main")
	f.write("f.txt", "1\n2\n3\n4\nfive\n6\n")
	f.commit("main: five")
	f.Tick++
	f.git("merge", "-q", "--no-ff", "-m", "merge side", "side")
	f.write("f.txt", "1\ntwo\n3\n4\nfive\n6\n7\n")
	f.commit("append")
	return "f.txt"
}

func buildEvilMerge(f *fixture) string {
	f.write("f.txt", "a\nb\nc\n")
	f.commit("base")
	f.git("checkout", "-q", "-b", "side")
	f.write("f.txt", "a\nB-side\nc\n")
	f.commit("side")
	f.git("checkout", "-q", "main")
	f.write("f.txt", "a\nB-main\nc\nd\n")
	f.commit("main")
	f.Tick++
	f.git("merge", "-q", "--no-ff", "-s", "ours", "-m", "merge side", "side")
	f.write("f.txt", "a\nB-side\nc\nd\nmerged\n")
	f.git("commit", "-q", "--amend", "-a", "-m", "merge side, resolved")
	return "f.txt"
}

func buildSliders(f *fixture) string {
	f.write("s.go", "package s\n\nfunc a() {\n\tx()\n}\n\nfunc c() {\n\tx()\n}\n")
	f.commit("a and c")
	f.write("s.go", "package s\n\nfunc a() {\n\tx()\n}\n\nfunc b() {\n\tx()\n}\n\nfunc c() {\n\tx()\n}\n")
	f.commit("b")
	f.write("s.go", "package s\n\nfunc a() {\n\tx()\n}\n\nfunc b() {\n\tx()\n}\n\nfunc b2() {\n\tx()\n}\n\nfunc c() {\n\tx()\n}\n")
	f.commit("b2")
	return "s.go"
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestBlameGeneratedRepoMatchesGit(t *testing.T) {
	if testing.Short() {
		t.Skip("generates a repository")
	}
	dir := filepath.Join(t.TempDir(), "repo")
	info, err := gen.Repo(dir, gen.Options{Files: 200, FilesPerDir: 20, Commits: 200, MergeEvery: 10, Lines: 60})
	if err != nil {
		t.Fatal(err)
	}
	sc := scopeOf(t, dir)
	r := New(Options{Scope: scope.Static(sc)})
	defer r.Close()
	home := t.TempDir()
	for _, p := range []string{info.HotPath, info.RarePath, info.Paths[0]} {
		want := gitBlameCommits(t, dir, home, "HEAD", p)
		if diff := cmp.Diff(want, groveBlameCommits(t, r, sc, "", p)); diff != "" {
			t.Errorf("%s: blame mismatch (-git +grove):\n%s", p, diff)
		}
	}
}
