package gittools

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/grove-mcp/grove/gittools/internal/history"

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
	f.Tick++
	f.git("merge", "-q", "--no-ff", "-m", "merge feature", "feature")
	f.git("checkout", "-q", "-b", "side")
	f.write("other.txt", "x\n")
	f.commit("side: other")
	f.git("checkout", "-q", "main")
	f.write("src/a.go", "package a\n\nfunc A() { println(1) }\n")
	f.commit("fix A")
	f.Tick++
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

// TestLogMatchesGit compares with git log without a commit graph, with one (path-limited walks then decode only
// the commits they return), and with a stale one that lacks the newest commits.
func TestLogMatchesGit(t *testing.T) {
	f := historyFixture(t)
	t.Run("no graph", func(t *testing.T) { checkLogMatchesGit(t, f) })
	f.git("commit-graph", "write", "--reachable")
	if !hasCommitGraph(t, f) {
		t.Fatal("the commit graph git wrote was not loaded")
	}
	t.Run("commit graph", func(t *testing.T) { checkLogMatchesGit(t, f) })
	f.write("src/a.go", "package a\n\nfunc A() { println(2) }\n")
	f.commit("after the graph")
	f.write("README", "readme v3\n")
	f.commit("readme after the graph")
	t.Run("stale graph", func(t *testing.T) { checkLogMatchesGit(t, f) })
}

func hasCommitGraph(t *testing.T, f *fixture) bool {
	r, sc := f.repos()
	rp, unlock, err := r.open(testCtx(t), sc, "")
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	return rp.CommitGraph() != nil
}

func checkLogMatchesGit(t *testing.T, f *fixture) {
	r, sc := f.repos()
	for _, tt := range []struct {
		name string
		in   history.LogArgs
		git  []string
	}{
		{"plain", history.LogArgs{MaxCount: 100}, nil},
		{"max count", history.LogArgs{MaxCount: 3}, []string{"-3"}},
		{"path file", history.LogArgs{MaxCount: 100, Path: "src/a.go"}, []string{"--", "src/a.go"}},
		{"path file max", history.LogArgs{MaxCount: 2, Path: "src/a.go"}, []string{"-2", "--", "src/a.go"}},
		{"path dir", history.LogArgs{MaxCount: 100, Path: "src"}, []string{"--", "src"}},
		{"path renamed", history.LogArgs{MaxCount: 100, Path: "src/bee.go"}, []string{"--", "src/bee.go"}},
		{"path old name", history.LogArgs{MaxCount: 100, Path: "src/b.go"}, []string{"--", "src/b.go"}},
		{"path readme", history.LogArgs{MaxCount: 100, Path: "README"}, []string{"--", "README"}},
		{"path absolute", history.LogArgs{MaxCount: 100, Path: f.dir + "/src/a.go"}, []string{"--", "src/a.go"}},
		{"path author", history.LogArgs{MaxCount: 100, Path: "src", Author: "Bob"}, []string{"--author=Bob", "--", "src"}},
		{"path grep", history.LogArgs{MaxCount: 100, Path: "src", Grep: "change A|fix"}, []string{"-E", "--grep=change A|fix", "--", "src"}},
		{"author", history.LogArgs{MaxCount: 100, Author: "Bob"}, []string{"--author=Bob"}},
		{"grep", history.LogArgs{MaxCount: 100, Grep: "widget|feature"}, []string{"-E", "--grep=widget|feature"}},
		{"grep anchored per line", history.LogArgs{MaxCount: 100, Grep: "^change|A$"}, []string{"-E", "--grep=^change|A$"}},
		{"since", history.LogArgs{MaxCount: 100, Since: "2024-01-01T17:00:00Z"}, []string{"--since=2024-01-01T17:00:00Z"}},
		{"until", history.LogArgs{MaxCount: 100, Until: "2024-01-01T16:00:00Z"}, []string{"--until=2024-01-01T16:00:00Z"}},
		{"path since", history.LogArgs{MaxCount: 100, Path: "src", Since: "2024-01-01T17:00:00Z"}, []string{"--since=2024-01-01T17:00:00Z", "--", "src"}},
		{"revision", history.LogArgs{MaxCount: 100, Revision: "feature"}, []string{"feature"}},
		{"revision expr", history.LogArgs{MaxCount: 100, Revision: "HEAD~3"}, []string{"HEAD~3"}},
		{"range", history.LogArgs{MaxCount: 100, Revision: "feature..main"}, []string{"feature..main"}},
		{"range with path", history.LogArgs{MaxCount: 100, Revision: "feature..main", Path: "src"}, []string{"feature..main", "--", "src"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, out, err := r.logTool(testCtx(t), nil, sc, tt.in)
			if err != nil {
				t.Fatal(err)
			}
			got := []string{}
			for _, c := range out.Commits {
				when, err := time.Parse(time.RFC3339, c.Date)
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, fmt.Sprintf("%s %s <%s> %d %s", c.Hash, c.Author, c.Email, when.Unix(), c.Subject))
			}
			want := gitLogLines(f, "%H %an <%ae> %at %s", tt.git...)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("log mismatch (-git +grove):\n%s", diff)
			}
		})
	}
}

func gitLogLines(f *fixture, format string, args ...string) []string {
	out := f.git(append([]string{"log", "--format=" + format}, args...)...)
	lines := []string{}
	for _, l := range strings.Split(out, "\n") {
		if l != "" {
			lines = append(lines, l)
		}
	}
	return lines
}

func TestLogText(t *testing.T) {
	f := historyFixture(t)
	r, sc := f.repos()
	res, out, err := r.logTool(testCtx(t), nil, sc, history.LogArgs{MaxCount: 2})
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
	defer func(n int) { history.MaxScan = n }(history.MaxScan)
	history.MaxScan = 4
	res, out, err := r.logTool(testCtx(t), nil, sc, history.LogArgs{Author: "nobody"})
	if err != nil {
		t.Fatal(err)
	}
	if out.Scanned != 4 || out.Resume == "" || !strings.Contains(resultText(res), "revision="+out.Resume[:12]) {
		t.Errorf("budget stop: scanned %d resume %q text %q", out.Scanned, out.Resume, resultText(res))
	}
	if _, _, err := r.logTool(testCtx(t), nil, sc, history.LogArgs{Author: "nobody", Revision: out.Resume}); err != nil {
		t.Errorf("resuming: %v", err)
	}
}

func TestLogCorruptCommitGraph(t *testing.T) {
	f := historyFixture(t)
	want := gitLogLines(f, "%H", "--", "src/a.go")
	f.git("commit-graph", "write", "--reachable")
	graph := filepath.Join(f.dir, ".git", "objects", "info", "commit-graph")
	data, err := os.ReadFile(graph)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name string
		data []byte
	}{
		{"truncated", data[:len(data)/2]},
		{"garbage", []byte("CGPH\x01\x01\x09\x00garbage")},
		{"empty", nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			os.Chmod(graph, 0o644)
			if err := os.WriteFile(graph, tt.data, 0o644); err != nil {
				t.Fatal(err)
			}
			r, sc := f.repos()
			_, out, err := r.logTool(testCtx(t), nil, sc, history.LogArgs{MaxCount: 100, Path: "src/a.go"})
			if err != nil {
				t.Fatal(err)
			}
			got := []string{}
			for _, c := range out.Commits {
				got = append(got, c.Hash)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("log mismatch (-git +grove):\n%s", diff)
			}
		})
	}
}
