package gittools

import (
	"context"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/grove-mcp/grove/gittools/internal/patchtext"
	"github.com/grove-mcp/grove/gittools/internal/scan"
	"github.com/grove-mcp/grove/gittools/internal/status"
	"github.com/grove-mcp/grove/ignore"
	"github.com/grove-mcp/grove/roots"
	"github.com/grove-mcp/grove/watch"
)

// watcherFeed adapts a watch.Watcher as the server does.
type watcherFeed struct{ w *watch.Watcher }

func (f watcherFeed) Watch(worktree string) WorktreeChanges {
	return watcherChanges{f.w.Subscribe(worktree)}
}

type watcherChanges struct{ f *watch.Feed }

func (c watcherChanges) Sync(ctx context.Context) ([]string, bool, error) {
	ch, err := c.f.Sync(ctx)
	return ch.Paths, ch.Lost, err
}
func (c watcherChanges) Cover(dirs []string) bool { return c.f.Cover(dirs) }
func (c watcherChanges) Close()                   { c.f.Close() }

// watchFixture watches the fixture's worktree as the server would (ignored directories unwatched, by
// grove's matcher) and returns Repos whose git_status is warm.
func watchFixture(t testing.TB, f *fixture) (*Repos, *roots.Scope) {
	t.Helper()
	m, err := ignore.New(f.dir)
	if err != nil {
		t.Fatal(err)
	}
	w, err := watch.New(watch.Options{Ignore: func(abs string, isDir bool) bool {
		rel, err := filepath.Rel(f.dir, abs)
		return err == nil && rel != "." && m.Ignored(filepath.ToSlash(rel), isDir)
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	go func() {
		for range w.Batches() {
			m.Invalidate() // as the server drops its caches on changes
		}
	}()
	if err := w.SetRoots([]string{f.dir}); err != nil {
		t.Fatal(err)
	}
	r, sc := f.repos()
	r.SetChanges(watcherFeed{w})
	return r, sc
}

// warmLines runs git_status on r and returns its entries as sorted porcelain lines, as statusLines.
func warmLines(t testing.TB, r *Repos, sc *roots.Scope) []string {
	t.Helper()
	_, out, err := r.status(testCtx(t), nil, sc, status.StatusArgs{})
	if err != nil {
		t.Fatal(err)
	}
	lines := []string{}
	for _, e := range out.Entries {
		if e.OrigPath != "" { // the oracle runs without rename detection
			lines = append(lines, "D  "+patchtext.QuotePath(e.OrigPath))
			e.Index = "A"
		}
		lines = append(lines, e.Index+e.Worktree+" "+patchtext.QuotePath(e.Path))
	}
	slices.Sort(lines)
	return lines
}

// warmOf returns the warm state of the fixture's only repository.
func warmOf(t testing.TB, r *Repos) *scan.Warm {
	t.Helper()
	r.warm.mu.Lock()
	defer r.warm.mu.Unlock()
	for _, st := range r.warm.states {
		return st.warm
	}
	t.Fatal("no warm status state")
	return nil
}

// warmSteps is how many random changes TestWarmStatusMatchesGit makes per seed; GROVE_WARM_STEPS
// raises it (and GROVE_WARM_SEEDS the seeds) for a longer run.
func warmSteps(t *testing.T) (steps, seeds int) {
	steps, seeds = 50, 2
	if testing.Short() {
		steps, seeds = 20, 1
	}
	if s, err := strconv.Atoi(os.Getenv("GROVE_WARM_STEPS")); err == nil && s > 0 {
		steps = s
	}
	if s, err := strconv.Atoi(os.Getenv("GROVE_WARM_SEEDS")); err == nil && s > 0 {
		seeds = s
	}
	return steps, seeds
}

// TestWarmStatusMatchesGit is the differential test of warm status: random edits, creations,
// deletions, renames, chmods, checkouts, mkdir/rmdir, .gitignore edits and staging, each followed at
// once by a warm git_status compared with `git status` (which also rewrites the index, as a user's
// git would).
func TestWarmStatusMatchesGit(t *testing.T) {
	steps, seeds := warmSteps(t)
	for seed := range seeds {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			f := newFixture(t)
			f.write(".gitignore", "*.o\nbuild/\n",
				"a.txt", "a\n", "b.txt", "b\n", "dir/c.txt", "c\n", "dir/sub/d.txt", "d\n",
				"dir/sub/deep/e.txt", "e\n", "other/f.txt", "f\n", "other/g.o", "tracked although ignored\n")
			f.git("add", "-f", "other/g.o")
			f.commit("initial")
			f.git("checkout", "-q", "-b", "side")
			f.write("side.txt", "s\n", "dir/c.txt", "side c\n", "sidedir/x.txt", "x\n")
			os.Remove(filepath.Join(f.dir, "b.txt"))
			f.commit("side")
			f.git("checkout", "-q", "main")
			r, sc := watchFixture(t, f)
			rng := rand.New(rand.NewPCG(uint64(seed), 13))
			warm := 0
			for step := range steps {
				op := randomChange(t, f, rng)
				if compareWarm(t, f, r, sc, fmt.Sprintf("step %d (%s)", step, op)) {
					warm++
				}
			}
			t.Logf("%d of %d statuses warm", warm, steps)
			if warm < steps/3 {
				t.Errorf("only %d of %d statuses were warm", warm, steps)
			}
		})
	}
}

// compareWarm compares a warm status with git's, and reports whether it was warm. grove goes first:
// git refreshes the index, which drops grove's derived caches, and would hide their staleness. A second
// status then takes in git's refresh, so that the next change starts from an index grove has seen.
func compareWarm(t *testing.T, f *fixture, r *Repos, sc *roots.Scope, what string) (warm bool) {
	t.Helper()
	got := warmLines(t, r, sc)
	warm = !warmOf(t, r).Full()
	want := gitStatus(f)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("%s: status mismatch (-git +grove):\n%s", what, diff)
	}
	if diff := cmp.Diff(want, warmLines(t, r, sc)); diff != "" {
		t.Fatalf("%s, after git refreshed the index: status mismatch (-git +grove):\n%s", what, diff)
	}
	return warm
}

// randomChange makes one random change to the fixture's worktree or index and describes it.
func randomChange(t *testing.T, f *fixture, rng *rand.Rand) string {
	t.Helper()
	files, dirs := listTree(t, f.dir)
	pick := func(l []string) string {
		if len(l) == 0 {
			return ""
		}
		return l[rng.IntN(len(l))]
	}
	abs := func(rel string) string { return filepath.Join(f.dir, filepath.FromSlash(rel)) }
	newName := func() string {
		d := pick(append(dirs, "", "newdir", "build", "dir/sub/new"))
		return strings.TrimPrefix(d+"/", "/") + fmt.Sprintf("n%d%s", rng.IntN(50), pick([]string{".txt", ".txt", ".o", ".md"}))
	}
	switch n := rng.IntN(19); {
	case n < 3 && len(files) > 0:
		p := pick(files)
		fh, err := os.OpenFile(abs(p), os.O_WRONLY|os.O_APPEND, 0)
		if err == nil {
			fmt.Fprintf(fh, "more %d\n", rng.IntN(1000))
			fh.Close()
		}
		return "edit " + p
	case n < 5:
		p := newName()
		f.write(p, "new\n")
		return "create " + p
	case n < 6 && len(files) > 0:
		p := pick(files)
		os.Remove(abs(p))
		return "delete " + p
	case n < 7 && len(files) > 0:
		p, q := pick(files), newName()
		os.MkdirAll(filepath.Dir(abs(q)), 0o755)
		os.Rename(abs(p), abs(q))
		return "rename " + p + " " + q
	case n < 8 && len(files) > 0:
		p := pick(files)
		if fi, err := os.Lstat(abs(p)); err == nil && fi.Mode().IsRegular() {
			os.Chmod(abs(p), fi.Mode().Perm()^0o111)
		}
		return "chmod " + p
	case n < 9:
		b := pick([]string{"main", "side"})
		f.git("checkout", "-q", "-f", b)
		return "checkout " + b
	case n < 10:
		d := pick([]string{"empty", "dir/emptysub", "newdir/deep/er", "build/out"})
		os.MkdirAll(abs(d), 0o755)
		if rng.IntN(2) == 0 {
			f.write(d+"/in.txt", "in\n")
		}
		return "mkdir " + d
	case n < 11 && len(dirs) > 0:
		d := pick(dirs)
		os.RemoveAll(abs(d))
		return "rmdir " + d
	case n < 12 && len(dirs) > 0:
		d, e := pick(dirs), fmt.Sprintf("moved%d", rng.IntN(5))
		os.Rename(abs(d), abs(e))
		return "rename dir " + d + " " + e
	case n < 13:
		pat := pick([]string{"*.md", "newdir/", "!n1.o", "dir/sub/", "*.txt"})
		if rng.IntN(3) == 0 {
			f.write(".gitignore", "*.o\nbuild/\n")
			return "reset .gitignore"
		}
		old, _ := os.ReadFile(abs(".gitignore"))
		f.write(".gitignore", string(old)+pat+"\n")
		return "ignore " + pat
	case n < 15:
		args := pick([]string{"add", "add -A", "rm", "reset", "add -N"})
		p := pick(files)
		switch args {
		case "add -A", "reset":
			runGitQuiet(f, strings.Fields(args)...)
			return "git " + args
		case "rm":
			if p != "" {
				runGitQuiet(f, "rm", "-q", "--cached", "--ignore-unmatch", "--", p)
			}
		default:
			if p != "" {
				runGitQuiet(f, append(strings.Fields(args), "--", p)...)
			}
		}
		return "git " + args + " " + p
	case n == 16:
		runGitQuiet(f, "commit", "-q", "-m", "step")
		return "commit"
	case n == 17:
		d := pick([]string{"nested", "dir/nested"})
		runGitQuiet(f, "init", "-q", d)
		f.write(d+"/inner.txt", "inner\n")
		return "nested repository " + d
	case n == 18:
		p, target := newName(), pick(append(dirs, "missing"))
		os.Symlink(target, abs(p))
		return "symlink " + p + " -> " + target
	default:
		p := newName()
		os.MkdirAll(filepath.Dir(abs(p)), 0o755)
		os.Symlink("a.txt", abs(p))
		return "symlink " + p
	}
}

// runGitQuiet runs git, ignoring failure (adding an ignored path, say).
func runGitQuiet(f *fixture, args ...string) {
	_ = gitCmd(f, args...).Run()
}

// listTree lists the worktree's files (symlinks included) and directories, .git aside, sorted.
func listTree(t *testing.T, dir string) (files, dirs []string) {
	t.Helper()
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == dir {
			return nil
		}
		rel := filepath.ToSlash(strings.TrimPrefix(p, dir+string(filepath.Separator)))
		if d.Name() == ".git" {
			return fs.SkipDir
		}
		if d.IsDir() {
			dirs = append(dirs, rel)
		} else {
			files = append(files, rel)
		}
		return nil
	})
	slices.Sort(files)
	slices.Sort(dirs)
	return files, dirs
}

// TestWarmStatusScenarios replays sequences that the random test reaches rarely, each step followed by
// a warm status compared with git's.
func TestWarmStatusScenarios(t *testing.T) {
	for _, tt := range []struct {
		name  string
		setup []string // files of the first commit, as pairs for fixture.write
		steps []func(f *fixture)
	}{
		{
			// No event names t/.gitignore: the matcher's cached rules for t must go.
			name:  "directory with its own .gitignore moved over a tracked one",
			setup: []string{"t/.gitignore", "*.log\n", "t/a.txt", "a\n"},
			steps: []func(f *fixture){
				func(f *fixture) { f.write("t3/.gitignore", "\n", "t3/y.log", "not ignored\n") },
				func(f *fixture) { f.write("t/x.log", "ignored\n") }, // a warm status reads t/.gitignore
				func(f *fixture) { mustRename(f, "t", "t2"); mustRename(f, "t3", "t") },
			},
		},
		{
			// build/ was ignored when the watcher walked the tree, so it is not watched: its content
			// must be probed, not trusted.
			name:  "unignored directory that is not watched",
			setup: []string{".gitignore", "build/\n", "a.txt", "a\n", "build/keep.txt", "k\n"},
			steps: []func(f *fixture){
				func(f *fixture) { f.write(".gitignore", "\n") },
				func(f *fixture) { mustRemove(f, "build/keep.txt") },
				func(f *fixture) { f.write("build/deep/again.txt", "again\n") },
			},
		},
		{
			// A tracked file in an ignored, unwatched directory: the directory holds tracked files now
			// and must be watched.
			name:  "file added by force in an ignored directory",
			setup: []string{".gitignore", "build/\n", "a.txt", "a\n", "build/x.txt", "x\n"},
			steps: []func(f *fixture){
				func(f *fixture) { f.git("add", "-f", "build/x.txt") },
				func(f *fixture) { f.write("build/x.txt", "changed\n") },
				func(f *fixture) { f.write("build/x.txt", "changed again, longer\n") },
				func(f *fixture) { f.write("build/new.txt", "ignored\n") },
			},
		},
		{
			name:  "staging splits an untracked directory, unstaging collapses it",
			setup: []string{"a.txt", "a\n"},
			steps: []func(f *fixture){
				func(f *fixture) { f.write("u/v/w.txt", "w\n", "u/x.txt", "x\n") },
				func(f *fixture) { f.git("add", "u/v/w.txt") },
				func(f *fixture) { f.git("rm", "-q", "--cached", "u/v/w.txt") },
			},
		},
		{
			name:  "file replaced by a directory and back",
			setup: []string{"a.txt", "a\n", "p", "file\n"},
			steps: []func(f *fixture){
				func(f *fixture) { mustRemove(f, "p"); f.write("p/inner.txt", "i\n") },
				func(f *fixture) { mustRemoveAll(f, "p"); f.write("p", "file again\n") },
			},
		},
		{
			name:  "info/exclude edited",
			setup: []string{"a.txt", "a\n"},
			steps: []func(f *fixture){
				func(f *fixture) { f.write("notes.md", "n\n") },
				func(f *fixture) { f.write(".git/info/exclude", "*.md\n") },
				func(f *fixture) { f.write(".git/info/exclude", "\n") },
			},
		},
		{
			// The file core.excludesFile names is not a .gitignore: no event of the feed says its rules
			// changed.
			name:  "core.excludesFile edited",
			setup: []string{"a.txt", "a\n"},
			steps: []func(f *fixture){
				func(f *fixture) { f.write("notes.md", "n\n", "my-excludes", "\n") },
				func(f *fixture) { f.git("config", "core.excludesFile", "my-excludes") },
				func(f *fixture) { f.write("my-excludes", "*.md\n") },
				func(f *fixture) { f.write("my-excludes", "\n") },
			},
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			f.write(tt.setup...)
			f.commit("initial")
			r, sc := watchFixture(t, f)
			if diff := cmp.Diff(gitStatus(f), warmLines(t, r, sc)); diff != "" {
				t.Fatalf("before any step (-git +grove):\n%s", diff)
			}
			for i, step := range tt.steps {
				step(f)
				compareWarm(t, f, r, sc, fmt.Sprint("step ", i))
			}
		})
	}
}

func mustRename(f *fixture, from, to string) {
	f.t.Helper()
	if err := os.Rename(filepath.Join(f.dir, from), filepath.Join(f.dir, to)); err != nil {
		f.t.Fatal(err)
	}
}

func mustRemove(f *fixture, rel string) {
	f.t.Helper()
	if err := os.Remove(filepath.Join(f.dir, filepath.FromSlash(rel))); err != nil {
		f.t.Fatal(err)
	}
}

func mustRemoveAll(f *fixture, rel string) {
	f.t.Helper()
	if err := os.RemoveAll(filepath.Join(f.dir, filepath.FromSlash(rel))); err != nil {
		f.t.Fatal(err)
	}
}
