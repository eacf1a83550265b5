package ignore

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// newTree writes a txtar tree into a fresh directory (no repository) and
// returns a matcher for it.
func newTree(t *testing.T, archive string) (*Matcher, string) {
	t.Helper()
	t.Setenv("HOME", t.TempDir()) // no global excludes
	t.Setenv("XDG_CONFIG_HOME", "")
	dir := t.TempDir()
	writeTree(t, dir, archive)
	m, err := New(dir)
	if err != nil {
		t.Fatal(err)
	}
	return m, dir
}

func TestIgnored(t *testing.T) {
	for _, tt := range []struct {
		name, gitignore string
		path            string
		isDir, want     bool
	}{
		{"literal", "foo\n", "foo", false, true},
		{"literal in subdir", "foo\n", "a/b/foo", false, true},
		{"literal prefix only", "foo\n", "foobar", false, false},
		{"comment", "#foo\n", "#foo", false, false},
		{"escaped hash", "\\#foo\n", "#foo", false, true},
		{"escaped bang", "\\!foo\n", "!foo", false, true},
		{"blank lines", "\n\n  \nfoo\n", "foo", false, true},
		{"trailing spaces trimmed", "foo   \n", "foo", false, true},
		{"trailing tab kept", "foo\t\n", "foo", false, false},
		{"escaped trailing space", "foo\\ \n", "foo ", false, true},
		{"escaped trailing space not bare", "foo\\ \n", "foo", false, false},
		{"crlf", "foo\r\nbar\r\n", "bar", false, true},
		{"bom", "\xef\xbb\xbffoo\n", "foo", false, true},
		{"no final newline", "foo", "foo", false, true},
		{"negation", "*.log\n!keep.log\n", "keep.log", false, false},
		{"negation order", "!keep.log\n*.log\n", "keep.log", false, true},
		{"parent excluded", "build/\n!build/keep\n", "build/keep", false, true},
		{"parent contents excluded", "build/*\n!build/keep\n", "build/keep", false, false},
		{"dir only on file", "out/\n", "out", false, false},
		{"dir only on dir", "out/\n", "out", true, true},
		{"dir only inside", "out/\n", "out/x", false, true},
		{"leading slash anchors", "/foo\n", "a/foo", false, false},
		{"leading slash top", "/foo\n", "foo", false, true},
		{"middle slash anchors", "a/foo\n", "b/a/foo", false, false},
		{"middle slash top", "a/foo\n", "a/foo", false, true},
		{"star no slash", "a/*.c\n", "a/b/x.c", false, false},
		{"star one level", "a/*.c\n", "a/x.c", false, true},
		{"leading doublestar", "**/foo\n", "x/y/foo", false, true},
		{"leading doublestar top", "**/foo\n", "foo", false, true},
		{"trailing doublestar", "abc/**\n", "abc/x/y", false, true},
		{"trailing doublestar not dir itself", "abc/**\n", "abc", true, false},
		{"middle doublestar zero", "a/**/b\n", "a/b", false, true},
		{"middle doublestar many", "a/**/b\n", "a/x/y/b", false, true},
		{"doublestar in name", "a**b\n", "axyb", false, true},
		{"question", "fo?\n", "foo", false, true},
		{"question not slash", "a?b\n", "a/b", false, false},
		{"class", "file[0-9]\n", "file5", false, true},
		{"negated class", "file[!0-9]\n", "file5", false, false},
		{"bracket first", "[]]x\n", "]x", false, true},
		{"escaped star", "\\*\n", "*", false, true},
		{"escaped star literal", "\\*\n", "a", false, false},
		{"star plus", "*+\n", "c++", false, true},
		{"star plus not all", "*+\n", "main.c", false, false},
		{"unclosed class", "[a\n", "[a", false, false},
		{"case sensitive", "Foo\n", "foo", false, false},
		{"ends with", "*.o\n", "x/y.o", false, true},
		{"ends with dir only", "*.d/\n", "x.d", false, false},
		{"only bang", "!\n", "!", false, false},
		{"only slash", "/\n", "x", true, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			m, _ := newTree(t, "-- .gitignore --\n"+tt.gitignore)
			if got := m.Ignored(tt.path, tt.isDir); got != tt.want {
				t.Errorf("Ignored(%q, %v) with %q = %v, want %v", tt.path, tt.isDir, tt.gitignore, got, tt.want)
			}
		})
	}
}

func TestIgnoredNested(t *testing.T) {
	m, _ := newTree(t, `
-- .gitignore --
*.o
/top
-- a/.gitignore --
!keep.o
/local
-- a/b/.gitignore --
*.o
`)
	for _, tt := range []struct {
		path string
		want bool
	}{
		{"x.o", true},
		{"a/x.o", true},
		{"a/keep.o", false},
		{"a/b/keep.o", true},
		{"a/local", true},
		{"a/b/local", false},
		{"top", true},
		{"a/top", false},
	} {
		if got := m.Ignored(tt.path, false); got != tt.want {
			t.Errorf("Ignored(%q) = %v, want %v", tt.path, got, tt.want)
		}
	}
}

func TestIgnoredOddPaths(t *testing.T) {
	m, _ := newTree(t, "-- .gitignore --\n*.o\n")
	for _, tt := range []struct {
		path string
		want bool
	}{
		{"", false},
		{".", false},
		{"../x.o", false},
		{"./x.o", true},
		{"a//b.o", true},
		{"/x.o", true},
		{".git", true},
		{".git/config", true},
		{"a/.git/HEAD", true},
		{".gitignore", false},
		{"a/.github/x", false},
	} {
		if got := m.Ignored(tt.path, false); got != tt.want {
			t.Errorf("Ignored(%q) = %v, want %v", tt.path, got, tt.want)
		}
	}
}

func TestInvalidate(t *testing.T) {
	m, dir := newTree(t, "-- .gitignore --\n*.a\n")
	if !m.Ignored("x.a", false) {
		t.Fatal("x.a not ignored")
	}
	if err := os.WriteFile(filepath.Join(dir, ".gitignore"), []byte("*.b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if !m.Ignored("x.a", false) {
		t.Error("x.a no longer ignored before Invalidate: the cache was not used")
	}
	m.Invalidate()
	got := []bool{m.Ignored("x.a", false), m.Ignored("x.b", false)}
	if diff := cmp.Diff([]bool{false, true}, got); diff != "" {
		t.Errorf("after Invalidate (-want +got):\n%s", diff)
	}
}

func TestNewErrors(t *testing.T) {
	if _, err := New(filepath.Join(t.TempDir(), "missing")); err == nil {
		t.Error("New on a missing directory succeeded")
	}
}

// TestRepoExcludesOutside checks the one place where grove departs from
// git: a core.excludesFile named by the repository's config is not read
// when it lies outside the tree.
func TestRepoExcludesOutside(t *testing.T) {
	m, dir := newTree(t, "-- a.out --\n-- b.in --\n-- conf/in --\n*.in\n")
	initRepo(t, dir, 2)
	outside := filepath.Join(t.TempDir(), "excludes")
	writeFile(t, outside, "*.out\n")
	appendFile(t, filepath.Join(dir, ".git", "config"), "[core]\nexcludesFile = "+outside+"\n")
	if m.Ignored("a.out", false) {
		t.Error("read core.excludesFile outside the tree")
	}
	appendFile(t, filepath.Join(dir, ".git", "config"), "[core]\nexcludesFile = conf/in\n")
	m.Invalidate()
	if !m.Ignored("b.in", false) {
		t.Error("did not read core.excludesFile inside the tree")
	}
}

// TestGitDirOutside checks that a worktree whose git directory lies outside
// the tree (a linked worktree) is matched as a plain tree: its index and
// info/exclude are not read, its .gitignore files are.
func TestGitDirOutside(t *testing.T) {
	m, dir := newTree(t, "-- .gitignore --\n*.o\n-- a.o --\n-- b.x --\n")
	elsewhere := t.TempDir()
	initRepo(t, elsewhere, 2)
	writeFile(t, filepath.Join(elsewhere, "a.o"), "")
	writeIndex(t, elsewhere, "a.o")
	writeFile(t, filepath.Join(elsewhere, ".git", "info", "exclude"), "*.x\n")
	writeFile(t, filepath.Join(dir, ".git"), "gitdir: "+filepath.Join(elsewhere, ".git")+"\n")
	got := []bool{m.Ignored("a.o", false), m.Ignored("b.x", false), m.Tracked("a.o")}
	if diff := cmp.Diff([]bool{true, false, false}, got); diff != "" {
		t.Errorf("Ignored(a.o), Ignored(b.x), Tracked(a.o) (-want +got):\n%s", diff)
	}
}
