package gittools

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// historyFixture builds a history with branches, merges (one TREESAME to a parent, one not), a rename and
// commits by two authors.
func historyFixture(t testing.TB) *fixture {
	f := newFixture(t)
	f.write("src/a.go", "package a\n", "README", "readme\n")
	f.commit("initial")
	f.write("src/a.go", "package a\n\nfunc A() {}\n")
	f.commit("add A")
	f.git("checkout", "-q", "-b", "feature")
	f.write("src/b.go", "package a\n// b\n")
	f.commit("feature: add b")
	f.write("src/a.go", "package a\n\nfunc A() { println() }\n")
	f.commit("feature: change A")
	f.git("checkout", "-q", "main")
	f.write("README", "readme v2\n")
	f.commit("docs: readme")
	f.tick++
	f.git("merge", "-q", "--no-ff", "-m", "merge feature", "feature")
	f.git("checkout", "-q", "-b", "side")
	f.write("other.txt", "x\n")
	f.commit("side: other")
	f.git("checkout", "-q", "main")
	f.write("src/a.go", "package a\n\nfunc A() { println(1) }\n")
	f.commit("fix A")
	f.tick++
	f.git("merge", "-q", "--no-ff", "-m", "merge side", "side")
	f.git("mv", "src/b.go", "src/bee.go")
	f.commit("rename b")
	f.git("-c", "user.name=Bob", "commit", "-q", "--allow-empty", "--author=Bob Builder <bob@example.com>", "-m", "empty by bob\n\nbody mentions widget")
	f.write("src/bee.go", "package a\n// bee\n")
	f.commit("touch bee")
	return f
}

func gitLogHashes(f *fixture, args ...string) []string {
	out := f.git(append([]string{"log", "--format=%H"}, args...)...)
	hs := []string{}
	for _, l := range strings.Split(out, "\n") {
		if l != "" {
			hs = append(hs, l)
		}
	}
	return hs
}

func TestLogMatchesGit(t *testing.T) {
	f := historyFixture(t)
	r, sc := f.repos()
	for _, tt := range []struct {
		name string
		in   LogArgs
		git  []string
	}{
		{"plain", LogArgs{MaxCount: 100}, nil},
		{"max count", LogArgs{MaxCount: 3}, []string{"-3"}},
		{"path file", LogArgs{MaxCount: 100, Path: "src/a.go"}, []string{"--", "src/a.go"}},
		{"path dir", LogArgs{MaxCount: 100, Path: "src"}, []string{"--", "src"}},
		{"path renamed", LogArgs{MaxCount: 100, Path: "src/bee.go"}, []string{"--", "src/bee.go"}},
		{"path old name", LogArgs{MaxCount: 100, Path: "src/b.go"}, []string{"--", "src/b.go"}},
		{"path readme", LogArgs{MaxCount: 100, Path: "README"}, []string{"--", "README"}},
		{"path absolute", LogArgs{MaxCount: 100, Path: f.dir + "/src/a.go"}, []string{"--", "src/a.go"}},
		{"author", LogArgs{MaxCount: 100, Author: "Bob"}, []string{"--author=Bob"}},
		{"grep", LogArgs{MaxCount: 100, Grep: "widget|feature"}, []string{"-E", "--grep=widget|feature"}},
		{"since", LogArgs{MaxCount: 100, Since: "2024-01-01T17:00:00Z"}, []string{"--since=2024-01-01T17:00:00Z"}},
		{"until", LogArgs{MaxCount: 100, Until: "2024-01-01T16:00:00Z"}, []string{"--until=2024-01-01T16:00:00Z"}},
		{"revision", LogArgs{MaxCount: 100, Revision: "feature"}, []string{"feature"}},
		{"revision expr", LogArgs{MaxCount: 100, Revision: "HEAD~3"}, []string{"HEAD~3"}},
		{"range", LogArgs{MaxCount: 100, Revision: "feature..main"}, []string{"feature..main"}},
		{"range with path", LogArgs{MaxCount: 100, Revision: "feature..main", Path: "src"}, []string{"feature..main", "--", "src"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, out, err := r.logTool(testCtx(t), nil, sc, tt.in)
			if err != nil {
				t.Fatal(err)
			}
			got := []string{}
			for _, c := range out.Commits {
				got = append(got, c.Hash)
			}
			if diff := cmp.Diff(gitLogHashes(f, tt.git...), got); diff != "" {
				t.Errorf("log mismatch (-git +grove):\n%s", diff)
			}
		})
	}
}

func TestLogText(t *testing.T) {
	f := historyFixture(t)
	r, sc := f.repos()
	res, out, err := r.logTool(testCtx(t), nil, sc, LogArgs{MaxCount: 2})
	if err != nil {
		t.Fatal(err)
	}
	if !out.More {
		t.Error("More = false with more commits left")
	}
	want := f.git("log", "-2", "--format=%h %ad %an: %s", "--date=short", "--abbrev=7")
	if got := resultText(res); !strings.HasPrefix(got, want) || !strings.Contains(got, "max_count") {
		t.Errorf("text = %q, want prefix %q and a note", got, want)
	}
}

func TestLogStopsAtItsBudget(t *testing.T) {
	f := historyFixture(t)
	r, sc := f.repos()
	defer func(n int) { maxScan = n }(maxScan)
	maxScan = 4
	res, out, err := r.logTool(testCtx(t), nil, sc, LogArgs{Author: "nobody"})
	if err != nil {
		t.Fatal(err)
	}
	if out.Scanned != 4 || out.Resume == "" || !strings.Contains(resultText(res), "revision="+out.Resume[:12]) {
		t.Errorf("budget stop: scanned %d resume %q text %q", out.Scanned, out.Resume, resultText(res))
	}
	if _, _, err := r.logTool(testCtx(t), nil, sc, LogArgs{Author: "nobody", Revision: out.Resume}); err != nil {
		t.Errorf("resuming: %v", err)
	}
}
