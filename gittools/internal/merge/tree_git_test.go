package merge

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/google/go-cmp/cmp"
)

// gitRepo is a scratch repository driven by the git program, the oracle.
type gitRepo struct {
	t   *testing.T
	dir string
}

func newGitRepo(t *testing.T) *gitRepo {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	for k, v := range map[string]string{"GIT_AUTHOR_NAME": "a", "GIT_AUTHOR_EMAIL": "a@x", "GIT_COMMITTER_NAME": "c", "GIT_COMMITTER_EMAIL": "c@x"} {
		t.Setenv(k, v)
	}
	g := &gitRepo{t: t, dir: t.TempDir()}
	g.run("init", "-q", "-b", "main")
	return g
}

func (g *gitRepo) run(args ...string) string {
	g.t.Helper()
	out, err := exec.Command("git", append([]string{"-C", g.dir}, args...)...).CombinedOutput()
	if err != nil {
		g.t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// commit applies files ("" deletes; "->target" makes a symlink) and commits.
func (g *gitRepo) commit(msg string, files map[string]string) {
	g.t.Helper()
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	slices.SortFunc(names, func(a, b string) int { // deletions first, so a file can give way to a directory
		if (files[a] == "") != (files[b] == "") {
			if files[a] == "" {
				return -1
			}
			return 1
		}
		return strings.Compare(a, b)
	})
	for _, name := range names {
		content := files[name]
		p := filepath.Join(g.dir, name)
		os.RemoveAll(p)
		if content == "" {
			continue
		}
		os.MkdirAll(filepath.Dir(p), 0o755)
		if target, ok := strings.CutPrefix(content, "->"); ok {
			if err := os.Symlink(target, p); err != nil {
				g.t.Fatal(err)
			}
			continue
		}
		mode := os.FileMode(0o644)
		if rest, ok := strings.CutPrefix(content, "+x:"); ok {
			content, mode = rest, 0o755
		}
		if err := os.WriteFile(p, []byte(content), mode); err != nil {
			g.t.Fatal(err)
		}
		os.Chmod(p, mode)
	}
	g.run("add", "-A")
	g.run("commit", "-q", "--allow-empty", "-m", msg)
}

// compare merges ours and theirs with grove and with git merge-tree and compares tree and conflicted paths.
func (g *gitRepo) compare(ours, theirs string) {
	g.t.Helper()
	out, _ := exec.Command("git", "-C", g.dir, "merge-tree", "--write-tree", "--name-only", ours, theirs).Output()
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	var wantPaths []string
	for _, l := range lines[1:] {
		if l == "" {
			break
		}
		wantPaths = append(wantPaths, l)
	}
	wantPaths = slices.Compact(wantPaths)
	r, err := git.PlainOpen(g.dir)
	if err != nil {
		g.t.Fatal(err)
	}
	res, err := Commits(context.Background(), &Store{S: r.Storer}, plumbing.NewHash(g.run("rev-parse", ours)),
		plumbing.NewHash(g.run("rev-parse", theirs)), Options{Labels: Labels{Ours: ours, Theirs: theirs}}, true)
	if err != nil {
		g.t.Fatal(err)
	}
	var gotPaths []string
	for _, c := range res.Conflicts {
		gotPaths = append(gotPaths, c.Path)
	}
	if !slices.Equal(gotPaths, wantPaths) {
		g.t.Errorf("conflicted paths %v (%v), git merge-tree: %v", gotPaths, res.Conflicts, wantPaths)
	}
	if res.Tree.String() != lines[0] {
		g.t.Errorf("tree %s, git merge-tree %s:\n%s\ngit:\n%s", res.Tree, lines[0], g.run("ls-tree", "-r", res.Tree.String()), g.run("ls-tree", "-r", lines[0]))
	}
	// ours' files with res.Changed applied are the result's files.
	files := func(rev string) map[string]string {
		out := map[string]string{}
		for _, l := range strings.Split(g.run("ls-tree", "-r", rev), "\n") {
			if meta, p, ok := strings.Cut(l, "\t"); ok {
				f := strings.Fields(meta)
				out[p] = f[0] + " " + f[2]
			}
		}
		return out
	}
	got := files(ours)
	for p, e := range res.Changed {
		if e.Present() {
			got[p] = fmt.Sprintf("%06o %s", uint32(e.Mode), e.Hash)
		} else {
			delete(got, p)
		}
	}
	if diff := cmp.Diff(files(res.Tree.String()), got); diff != "" {
		g.t.Errorf("ours' files with res.Changed applied differ from the result's (-result +applied):\n%s", diff)
	}
}

func TestTreesAgreeWithGit(t *testing.T) {
	for _, tt := range []struct {
		name               string
		base, ours, theirs map[string]string
	}{
		{"binary conflict", map[string]string{"b.bin": "a\x00b\n"}, map[string]string{"b.bin": "ours\x00\n"}, map[string]string{"b.bin": "theirs\x00\n"}},
		{"symlink conflict", map[string]string{"l": "->a"}, map[string]string{"l": "->b"}, map[string]string{"l": "->c"}},
		{"file replaced by a directory", map[string]string{"x": "x\n", "k": "k\n"}, map[string]string{"x": "x changed\n"}, map[string]string{"x": "", "x/y": "y\n"}},
		{"modify/delete", map[string]string{"m": "1\n2\n"}, map[string]string{"m": "1\n2\n3\n"}, map[string]string{"m": ""}},
		{"add/add", map[string]string{"k": "k\n"}, map[string]string{"n": "a\nb\nc\n"}, map[string]string{"n": "a\nB\nc\n"}},
		{"rename and edit", map[string]string{"old.txt": "1\n2\n3\n4\n5\n6\n7\n8\n9\n"}, map[string]string{"old.txt": "", "new.txt": "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n"}, map[string]string{"old.txt": "0\n1\n2\n3\n4\n5\n6\n7\n8\n9\n"}},
		{"rename/rename", map[string]string{"r.txt": "r1\nr2\nr3\n"}, map[string]string{"r.txt": "", "r1.txt": "r1\nr2\nr3\n"}, map[string]string{"r.txt": "", "r2.txt": "r1\nr2\nr3\n"}},
		{"mode change and edit", map[string]string{"s.sh": "echo\n"}, map[string]string{"s.sh": "echo hi\n"}, map[string]string{"s.sh": "+x:echo\n"}},
		{"no newline at end", map[string]string{"e": "a\nb"}, map[string]string{"e": "a\nB"}, map[string]string{"e": "a\nb\nc"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			g := newGitRepo(t)
			g.commit("base", tt.base)
			g.run("branch", "theirs")
			g.commit("ours", tt.ours)
			g.run("checkout", "-q", "theirs")
			g.commit("theirs", tt.theirs)
			g.run("checkout", "-q", "main")
			g.compare("main", "theirs")
		})
	}
}

func TestCrissCrossAgreesWithGit(t *testing.T) {
	g := newGitRepo(t)
	g.commit("base", map[string]string{"f": "1\n2\n3\n4\n5\n6\n7\n8\n9\n"})
	g.run("branch", "b")
	g.commit("a1", map[string]string{"f": "1\nA\n3\n4\n5\n6\n7\n8\n9\n"})
	g.run("checkout", "-q", "b")
	g.commit("b1", map[string]string{"f": "1\n2\n3\n4\n5\n6\n7\nB\n9\n"})
	g.run("branch", "b-at-b1")
	g.run("merge", "-q", "--no-edit", "main")
	g.run("checkout", "-q", "main")
	g.run("merge", "-q", "--no-edit", "b-at-b1")
	g.commit("a2", map[string]string{"f": "1\nA2\n3\n4\n5\n6\n7\nB\n9\n"})
	g.run("checkout", "-q", "b")
	g.commit("b2", map[string]string{"f": "1\nA\n3\n4\nB5\n6\n7\nB\n9\n"})
	g.run("checkout", "-q", "main")
	if n := len(strings.Fields(g.run("merge-base", "--all", "main", "b"))); n != 2 {
		t.Fatalf("want a criss-cross history with 2 merge bases, got %d", n)
	}
	g.compare("main", "b")
}
