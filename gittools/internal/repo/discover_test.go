package repo

import (
	"log/slog"
	"os"
	"path/filepath"
	"testing"

	"github.com/grove-mcp/grove/gittools/internal/gittest"
)

// checkRepoAt runs CheckRepo on the worktree dir under a scope whose roots are dirs.
func checkRepoAt(t *testing.T, dir string, dirs ...string) (Found, bool) {
	t.Helper()
	fi, err := os.Lstat(filepath.Join(dir, ".git"))
	if err != nil {
		t.Fatal(err)
	}
	found, ok, _ := CheckRepo(gittest.Scope(t, dirs...), dir, fi, slog.New(slog.DiscardHandler))
	return found, ok
}

func realTempDir(t *testing.T) string {
	t.Helper()
	d, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func writeFile(t *testing.T, p, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestMetadataSwappedAfterDecisionIsNotRead swaps .git/config for a symlink to outside the root after
// discovery decided which name to read and just before it reads it. The in-root config sets core.worktree to
// another directory (refused); the outside one is harmless (accepted if read). Discovery must open the name
// through the root's handle, so the swapped symlink leads nowhere and the repository stays refused.
func TestMetadataSwappedAfterDecisionIsNotRead(t *testing.T) {
	const harmless = "[core]\n\trepositoryformatversion = 0\n\tbare = false\n"
	tests := []struct {
		name   string
		swap   bool   // swap .git/config for the outside symlink just before it is read
		config string // the in-root .git/config ("" keeps git's with core.worktree elsewhere)
		want   bool
	}{
		{name: "core.worktree elsewhere is refused", want: false},
		{name: "the harmless config in the root is accepted", config: harmless, want: true},
		{name: "swapped for a link to outside after the decision", swap: true, want: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := gittest.New(t)
			other := filepath.Join(f.Dir, "other")
			if err := os.Mkdir(other, 0o755); err != nil {
				t.Fatal(err)
			}
			f.Git("config", "core.worktree", other)
			cfg := filepath.Join(f.Dir, ".git", "config")
			if tt.config != "" {
				writeFile(t, cfg, tt.config)
			}
			outside := filepath.Join(realTempDir(t), "config")
			writeFile(t, outside, harmless)
			swapped := false
			if tt.swap {
				testHookBeforeRead = func(p string) {
					if p != cfg || swapped {
						return
					}
					swapped = true
					if err := os.Remove(cfg); err != nil {
						t.Error(err)
					}
					if err := os.Symlink(outside, cfg); err != nil {
						t.Error(err)
					}
				}
				t.Cleanup(func() { testHookBeforeRead = nil })
			}
			_, ok := checkRepoAt(t, f.Dir, f.Dir)
			if tt.swap && !swapped {
				t.Fatal("the hook never saw .git/config")
			}
			if ok != tt.want {
				t.Errorf("CheckRepo accepted = %t, want %t", ok, tt.want)
			}
		})
	}
}

// TestCheckRepoConfined: every path the metadata names must lie inside the roots.
func TestCheckRepoConfined(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T, f *gittest.Fixture, other string) // other: a second root of the scope
		sub   string                                               // the worktree checked, below the fixture ("" = the fixture)
		want  bool
		other bool // the git dir lies in the other root
	}{
		{name: "plain repository", setup: func(*testing.T, *gittest.Fixture, string) {}, want: true},
		{name: "absolute in-root .git symlink", want: true, setup: func(t *testing.T, f *gittest.Fixture, _ string) {
			moveGitDir(t, f.Dir, filepath.Join(f.Dir, "store", "g.git"))
			if err := os.Symlink(filepath.Join(f.Dir, "store", "g.git"), filepath.Join(f.Dir, ".git")); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "gitdir: file inside the root", want: true, setup: func(t *testing.T, f *gittest.Fixture, _ string) {
			moveGitDir(t, f.Dir, filepath.Join(f.Dir, "store", "g.git"))
			writeFile(t, filepath.Join(f.Dir, ".git"), "gitdir: store/g.git\n")
		}},
		{name: "gitdir: climbing out of the root", want: false, setup: func(t *testing.T, f *gittest.Fixture, _ string) {
			out := filepath.Join(realTempDir(t), "g.git")
			moveGitDir(t, f.Dir, out)
			rel, err := filepath.Rel(f.Dir, out)
			if err != nil {
				t.Fatal(err)
			}
			writeFile(t, filepath.Join(f.Dir, ".git"), "gitdir: "+rel+"\n")
		}},
		{name: "git dir in another root of the scope", want: true, other: true, setup: func(t *testing.T, f *gittest.Fixture, other string) {
			moveGitDir(t, f.Dir, filepath.Join(other, "g.git"))
			writeFile(t, filepath.Join(f.Dir, ".git"), "gitdir: "+filepath.Join(other, "g.git")+"\n")
		}},
		{name: "alternates inside the root", want: true, setup: func(t *testing.T, f *gittest.Fixture, _ string) {
			objs := filepath.Join(f.Dir, "store", "objects")
			if err := os.MkdirAll(objs, 0o755); err != nil {
				t.Fatal(err)
			}
			writeFile(t, filepath.Join(f.Dir, ".git", "objects", "info", "alternates"), objs+"\n")
		}},
		{name: "alternates outside the root", want: false, setup: func(t *testing.T, f *gittest.Fixture, _ string) {
			objs := filepath.Join(realTempDir(t), "objects")
			if err := os.MkdirAll(objs, 0o755); err != nil {
				t.Fatal(err)
			}
			writeFile(t, filepath.Join(f.Dir, ".git", "objects", "info", "alternates"), objs+"\n")
		}},
		{name: "commondir through an in-root symlink", sub: "wt", want: true, setup: func(t *testing.T, f *gittest.Fixture, _ string) {
			f.Write("a.txt", "a\n")
			f.Commit("first")
			f.Git("worktree", "add", "-q", "wt", "-b", "side")
			common := filepath.Join(f.Dir, "wt-link-common")
			if err := os.Symlink(filepath.Join(f.Dir, ".git"), common); err != nil {
				t.Fatal(err)
			}
			writeFile(t, filepath.Join(f.Dir, ".git", "worktrees", "wt", "commondir"), common+"\n")
		}},
		{name: "core.worktree naming the worktree through a symlink", want: true, setup: func(t *testing.T, f *gittest.Fixture, _ string) {
			link := filepath.Join(f.Dir, "self-link")
			if err := os.Symlink(f.Dir, link); err != nil {
				t.Fatal(err)
			}
			f.Git("config", "core.worktree", link)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := gittest.New(t)
			other := realTempDir(t)
			tt.setup(t, f, other)
			dir := filepath.Join(f.Dir, tt.sub)
			found, ok := checkRepoAt(t, dir, f.Dir, other)
			if ok != tt.want {
				t.Fatalf("CheckRepo accepted = %t, want %t", ok, tt.want)
			}
			if ok && !tt.other && (!Within(f.Dir, found.GitDir) || !Within(f.Dir, found.CommonDir)) {
				t.Errorf("git dir %q, common dir %q: want both under %q", found.GitDir, found.CommonDir, f.Dir)
			}
		})
	}
}

// moveGitDir moves dir/.git to to.
func moveGitDir(t *testing.T, dir, to string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(dir, ".git"), to); err != nil {
		t.Fatal(err)
	}
}

// TestRealPathStaysInRoot resolves paths with Readlink through the root's handle only.
func TestRealPathStaysInRoot(t *testing.T) {
	root := realTempDir(t)
	outside := realTempDir(t)
	for _, d := range []string{"a/b", "c"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	links := map[string]string{
		"abs-in":   filepath.Join(root, "a", "b"),
		"abs-out":  outside,
		"rel-in":   "a/b",
		"rel-up":   "../" + filepath.Base(root) + "/c",
		"deep":     "a/b/../../c", // lands on root/c
		"loop1":    "loop2",
		"loop2":    "loop1",
		"a/b/back": "../../c",
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(root, name)); err != nil {
			t.Fatal(err)
		}
	}
	fsys, err := os.OpenRoot(root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { fsys.Close() })
	m := metaRoot{fs: fsys, dir: root}
	tests := []struct {
		base, p string
		want    string // "" = refused
	}{
		{root, "a/b", filepath.Join(root, "a", "b")},
		{root, filepath.Join(root, "abs-in"), filepath.Join(root, "a", "b")},
		{root, "abs-in/../../c", filepath.Join(root, "c")}, // ".." after a link steps back from its target
		{root, "abs-out", ""},
		{root, "rel-in", filepath.Join(root, "a", "b")},
		{root, "rel-up", ""}, // climbs above the root, even to come back
		{root, "deep", filepath.Join(root, "c")},
		{root, "a/b/back", filepath.Join(root, "c")},
		{root, "loop1", ""},
		{root, "missing", ""},
		{root, "..", ""},
		{filepath.Join(root, "a"), "b", filepath.Join(root, "a", "b")},
		{root, outside, ""},
		{root, root + "x", ""},
	}
	for _, tt := range tests {
		got, ok := m.realPath(tt.base, tt.p)
		if !ok {
			got = ""
		}
		if got != tt.want {
			t.Errorf("realPath(%q, %q) = %q, want %q", tt.base, tt.p, got, tt.want)
		}
	}
}

// TestRealPathFollowsLinksIntoOtherRoots: RealPath reads every link through the handle of the root holding
// it, follows one into another root there, and refuses one that leads out of every root, as well as a root
// whose own path no longer names the directory its handle holds.
func TestRealPathFollowsLinksIntoOtherRoots(t *testing.T) {
	base := realTempDir(t)
	a, b, outside := filepath.Join(base, "a"), filepath.Join(base, "b"), filepath.Join(base, "outside")
	for _, d := range []string{filepath.Join(a, "x"), filepath.Join(b, "y"), filepath.Join(outside, "z")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for name, target := range map[string]string{
		filepath.Join(a, "to-b"):   filepath.Join(b, "y"),
		filepath.Join(a, "to-out"): filepath.Join(outside, "z"),
		filepath.Join(b, "up"):     "../a/x", // relative, leaving b for a
		filepath.Join(a, "rel"):    "../outside/z",
	} {
		if err := os.Symlink(target, name); err != nil {
			t.Fatal(err)
		}
	}
	sc := gittest.Scope(t, a, b)
	for _, tt := range []struct{ p, want string }{
		{filepath.Join(a, "x"), filepath.Join(a, "x")},
		{filepath.Join(a, "to-b"), filepath.Join(b, "y")},
		{filepath.Join(b, "up"), filepath.Join(a, "x")},
		{filepath.Join(a, "to-out"), ""},
		{filepath.Join(a, "rel"), ""},
		{filepath.Join(outside, "z"), ""},
	} {
		got, ok := RealPath(sc, tt.p)
		if !ok {
			got = ""
		}
		if got != tt.want {
			t.Errorf("RealPath(%q) = %q, want %q", tt.p, got, tt.want)
		}
	}
	if err := os.Rename(b, filepath.Join(outside, "b")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "b"), b); err != nil {
		t.Fatal(err)
	}
	if got, ok := RealPath(sc, filepath.Join(a, "to-b")); ok {
		t.Errorf("RealPath into a root moved away = %q, want refused", got)
	}
}
