package writecmd

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/index"
	"github.com/google/go-cmp/cmp"

	"github.com/grove-mcp/grove/gittools/internal/gittest"
	"github.com/grove-mcp/grove/gittools/internal/repo"
)

// switchFixture is a repository on main whose branch "other" changes a 1,000-file tree every way a switch
// can: files added, modified and deleted (emptying a directory), modes changed, a symlink retargeted, a file
// replaced by a directory and a directory by a file.
type switchFixture struct {
	*gittest.Fixture
	rp       *repo.Repo
	switched bool      // the last switch finished: reset must go back to main
	old      repoState // the state on main since the last reset
}

func newSwitchFixture(t *testing.T) *switchFixture {
	t.Helper()
	f := gittest.New(t)
	var files []string
	add := func(format string, n int, content string) {
		for i := range n {
			files = append(files, fmt.Sprintf(format, i), fmt.Sprintf("%s %d\n", content, i))
		}
	}
	add("keep/k%03d.txt", 200, "kept")
	add("mod/m%03d.txt", 300, "before")
	add("del/x%03d.txt", 200, "deleted")
	add("exec/e%03d.sh", 50, "mode")
	add("df/d%02d.txt", 10, "dir becomes file")
	files = append(files, "fd", "file becomes dir\n")
	f.Write(files...)
	if err := os.Symlink("keep/k000.txt", filepath.Join(f.Dir, "link")); err != nil {
		t.Fatal(err)
	}
	f.Commit("main")
	f.Git("checkout", "-q", "-b", "other")
	var changes []string
	for i := range 300 {
		changes = append(changes, fmt.Sprintf("mod/m%03d.txt", i), fmt.Sprintf("after %d\n", i))
	}
	for i := range 200 {
		changes = append(changes, fmt.Sprintf("add/a%03d.txt", i), fmt.Sprintf("added %d\n", i))
	}
	mustDo(t, os.RemoveAll(filepath.Join(f.Dir, "del")), os.RemoveAll(filepath.Join(f.Dir, "df")),
		os.Remove(filepath.Join(f.Dir, "fd")), os.Remove(filepath.Join(f.Dir, "link")),
		os.Symlink("keep/k001.txt", filepath.Join(f.Dir, "link")))
	for i := range 10 {
		changes = append(changes, fmt.Sprintf("fd/n%02d.txt", i), fmt.Sprintf("now a dir %d\n", i))
	}
	changes = append(changes, "df", "now a file\n")
	f.Write(changes...)
	for i := range 50 {
		mustDo(t, os.Chmod(filepath.Join(f.Dir, fmt.Sprintf("exec/e%03d.sh", i)), 0o755))
	}
	f.Commit("other")
	f.Git("checkout", "-q", "main")

	return &switchFixture{Fixture: f, rp: openTestRepo(t, f)}
}

// openTestRepo opens the fixture's repository as the tools do.
func openTestRepo(t *testing.T, f *gittest.Fixture) *repo.Repo {
	t.Helper()
	sc := gittest.Scope(t, f.Dir)
	loc, ok := sc.Locate(f.Dir)
	if !ok {
		t.Fatal("the worktree is not inside its own root")
	}
	gitDir := filepath.Join(f.Dir, ".git")
	rp := &repo.Repo{Worktree: f.Dir, GitDir: gitDir, CommonDir: gitDir, Loc: loc, Scope: sc,
		Logger: slog.New(slog.DiscardHandler), MaxRead: 1 << 30}
	if err := rp.OpenStorage(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rp.Store.Close() })
	return rp
}

func mustDo(t *testing.T, errs ...error) {
	t.Helper()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
}

// switchToOther runs git_checkout's switch from main to other.
func (f *switchFixture) switchToOther(ctx context.Context) error {
	f.rp.Changed()
	if err := f.rp.Refresh(); err != nil {
		return err
	}
	head, err := f.rp.Git.Storer.Reference(plumbing.HEAD)
	if err != nil {
		return err
	}
	target, err := f.rp.Git.Storer.Reference(plumbing.NewBranchReferenceName("other"))
	if err != nil {
		return err
	}
	var out CheckoutOut
	return switchTo(f.rp, ctx, head, target, &out)
}

// reset puts the repository back on main with a clean worktree, using git, and returns its state there. A
// switch that failed has been checked to leave that state, so it needs no reset.
func (f *switchFixture) reset(t *testing.T) repoState {
	t.Helper()
	if f.switched || f.old.Files == nil {
		f.Git("checkout", "-q", "-f", "main")
		f.Git("clean", "-q", "-ffdx")
		f.old, f.switched = f.state(t), false
	}
	return f.old
}

// repoState is what a switch may change: HEAD, the index (its bytes, and its entries without stat data),
// every worktree file and directory (type, permission bits, content), and lock files left in .git.
type repoState struct {
	Head    string
	Index   []byte
	Entries []string
	Files   map[string]string
	Locks   []string
}

func (f *switchFixture) state(t *testing.T) repoState {
	t.Helper()
	gitDir := filepath.Join(f.Dir, ".git")
	head, err := os.ReadFile(filepath.Join(gitDir, "HEAD"))
	mustDo(t, err)
	ix, err := os.ReadFile(filepath.Join(gitDir, "index"))
	mustDo(t, err)
	s := repoState{Head: string(head), Index: ix, Files: map[string]string{}}
	var idx index.Index
	mustDo(t, index.NewDecoder(bytes.NewReader(ix)).Decode(&idx))
	for _, e := range idx.Entries {
		s.Entries = append(s.Entries, fmt.Sprintf("%o %s %d %s", uint32(e.Mode), e.Hash, e.Stage, e.Name))
	}
	locks, _ := filepath.Glob(filepath.Join(gitDir, "*.lock"))
	for _, l := range locks {
		s.Locks = append(s.Locks, filepath.Base(l))
	}
	err = filepath.WalkDir(f.Dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel := filepath.ToSlash(strings.TrimPrefix(p, f.Dir+string(filepath.Separator)))
		if p == f.Dir {
			return nil
		}
		if rel == ".git" {
			return filepath.SkipDir
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			s.Files[rel] = "link " + target
			return err
		case fi.IsDir():
			s.Files[rel] = "dir"
		default:
			data, err := os.ReadFile(p)
			s.Files[rel] = fmt.Sprintf("%v %s", fi.Mode().Perm(), data)
			return err
		}
		return nil
	})
	mustDo(t, err)
	return s
}

// sameAsNew compares s with a state reached by a whole switch, leaving out the index's stat data.
func sameAsNew(s, want repoState) string {
	s.Index, want.Index = nil, nil
	return cmp.Diff(want, s)
}

// countingCtx cancels itself on the limit-th call of Err, the check every cancellable loop makes.
type countingCtx struct {
	context.Context
	cancel context.CancelFunc
	calls  atomic.Int64
	limit  int64
}

func newCountingCtx(t *testing.T, limit int64) *countingCtx {
	ctx, cancel := context.WithCancel(gittest.Ctx(t))
	return &countingCtx{Context: ctx, cancel: cancel, limit: limit}
}

func (c *countingCtx) Err() error {
	if c.calls.Add(1) == c.limit {
		c.cancel()
	}
	return c.Context.Err()
}

// switchProfile runs one whole switch and records how many context checks and commit steps each phase took.
type switchProfile struct {
	checks     int64    // context checks in the whole switch
	staging    int64    // context checks done when staging began (planning's)
	committing int64    // context checks done when the commit phase began
	steps      []string // the commit steps (faultHook calls after "stage"), in order
	newState   repoState
}

func (f *switchFixture) profile(t *testing.T) switchProfile {
	t.Helper()
	var p switchProfile
	ctx := newCountingCtx(t, -1)
	faultHook = func(step string) error {
		switch {
		case step == "stage":
			p.staging = ctx.calls.Load()
		case len(p.steps) == 0:
			p.committing = ctx.calls.Load()
			p.steps = append(p.steps, step)
		default:
			p.steps = append(p.steps, step)
		}
		return nil
	}
	defer func() { faultHook = nil }()
	f.reset(t)
	if err := f.switchToOther(ctx); err != nil {
		t.Fatalf("the uncancelled switch failed: %v", err)
	}
	f.switched = true
	p.checks = ctx.calls.Load()
	p.newState = f.state(t)
	if got := f.Git("status", "--porcelain", "--untracked-files=all", "--ignored"); got != "" {
		t.Fatalf("after the whole switch git status says:\n%s", got)
	}
	if got := strings.TrimSpace(f.Git("symbolic-ref", "HEAD")); got != "refs/heads/other" {
		t.Fatalf("after the whole switch HEAD is %q", got)
	}
	return p
}

// samples picks context-check numbers at which to cancel: the first few, both sides of each phase boundary,
// and evenly spread ones, up to one past the last check (which cancels nothing).
func (p switchProfile) samples(spread int64) []int64 {
	out := []int64{1, 2, 3, p.staging / 2, p.staging - 1, p.staging, p.staging + 1, p.staging + 2,
		(p.staging + p.committing) / 2, p.committing - 1, p.committing, p.committing + 1, p.checks, p.checks + 1,
		// Past every check even when the parallel walk before the commit phase checks the context a few
		// more times than it did while profiling (how often depends on the scheduler).
		2 * p.checks}
	for i := int64(1); i < spread; i++ {
		out = append(out, p.checks*i/spread)
	}
	out = slices.DeleteFunc(out, func(n int64) bool { return n < 1 })
	slices.Sort(out)
	return slices.Compact(out)
}

// A switch cancelled at any context check, or failing at any step of its commit phase, leaves the repository
// exactly as it was, or exactly as a whole switch leaves it. Cancels and failures are sampled (each phase's
// boundaries, then evenly) to keep the test fast under -race.
func TestSwitchLeavesOldOrNewState(t *testing.T) {
	f := newSwitchFixture(t)
	p := f.profile(t)
	if p.staging == 0 || p.committing <= p.staging || p.checks < p.committing || len(p.steps) < 700 {
		t.Fatalf("unexpected profile: %d checks, staging at %d, commit at %d, %d commit steps",
			p.checks, p.staging, p.committing, len(p.steps))
	}
	t.Logf("%d context checks (staging from %d, commit from %d), %d commit steps", p.checks, p.staging, p.committing, len(p.steps))
	t.Run("cancelled", func(t *testing.T) { f.testCancels(t, p) })
	t.Run("failing", func(t *testing.T) { f.testFailures(t, p) })
}

func (f *switchFixture) testCancels(t *testing.T, p switchProfile) {
	spread := int64(10)
	if testing.Short() {
		spread = 4
	}
	var sawOld, sawNew int
	for _, n := range p.samples(spread) {
		old := f.reset(t)
		err := f.switchToOther(newCountingCtx(t, n))
		got := f.state(t)
		switch {
		case err != nil:
			if !errors.Is(err, context.Canceled) {
				t.Errorf("cancelled at check %d: %v, want context.Canceled", n, err)
			}
			if diff := cmp.Diff(old, got); diff != "" {
				t.Fatalf("cancelled at check %d of %d, the switch failed but changed the repository (-old +got):\n%s", n, p.checks, diff)
			}
			sawOld++
		default:
			if n <= p.committing {
				t.Errorf("cancelled at check %d, before the commit phase (check %d), the switch still succeeded", n, p.committing)
			}
			f.switched = true
			if diff := sameAsNew(got, p.newState); diff != "" {
				t.Fatalf("cancelled at check %d of %d, the switch succeeded but left (-new +got):\n%s", n, p.checks, diff)
			}
			sawNew++
		}
	}
	if sawOld == 0 || sawNew == 0 {
		t.Errorf("%d cancels left the old state and %d the new: each should happen", sawOld, sawNew)
	}
}

func (f *switchFixture) testFailures(t *testing.T, p switchProfile) {
	steps := p.steps
	var at []int // 0-based indexes into steps
	for _, name := range []string{"move", "exchange", "rmdir", "mkdir", "place", "index", "head"} {
		if i := slices.Index(steps, name); i >= 0 {
			at = append(at, i)
		}
		if i := lastIndex(steps, name); i >= 0 {
			at = append(at, i)
		}
	}
	for _, q := range []int{4, 2} {
		at = append(at, len(steps)/q)
	}
	slices.Sort(at)
	at = slices.Compact(at)
	injected := errors.New("injected I/O failure")
	for _, i := range append([]int{-1}, at...) { // -1: the "stage" call, before anything is written
		name := "stage"
		if i >= 0 {
			name = steps[i]
		}
		t.Run(fmt.Sprintf("%d-%s", i+1, name), func(t *testing.T) {
			old := f.reset(t)
			seen := -2
			faultHook = func(step string) error {
				if seen++; seen == i {
					return injected
				}
				return nil
			}
			defer func() { faultHook = nil }()
			err := f.switchToOther(gittest.Ctx(t))
			f.switched = err == nil
			if !errors.Is(err, injected) {
				t.Fatalf("switch with a failure at step %d (%s): %v, want the injected error", i+1, name, err)
			}
			if diff := cmp.Diff(old, f.state(t)); diff != "" {
				t.Errorf("a failure at step %d (%s) changed the repository (-old +got):\n%s", i+1, name, diff)
			}
		})
	}
}

func lastIndex(s []string, v string) int {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == v {
			return i
		}
	}
	return -1
}

// A switch that rewrites a file in each of more directories than the handle cache holds stages every file
// beside its path (the writers creating through held handles while the cache evicts) and leaves exactly the
// target branch, with no staged file behind.
func TestSwitchRewritesFilesInManyDirectories(t *testing.T) {
	f := gittest.New(t)
	const dirs = 300 // more than the Linux handle cache holds (maxDirHandles)
	var files, changes []string
	for i := range dirs {
		files = append(files, fmt.Sprintf("d%03d/f.txt", i), fmt.Sprintf("old %d\n", i))
		changes = append(changes, fmt.Sprintf("d%03d/f.txt", i), fmt.Sprintf("new %d\n", i))
	}
	f.Write(files...)
	f.Commit("main")
	f.Git("checkout", "-q", "-b", "other")
	f.Write(changes...)
	f.Commit("other")
	f.Git("checkout", "-q", "main")
	sf := &switchFixture{Fixture: f, rp: openTestRepo(t, f)}
	if err := sf.switchToOther(gittest.Ctx(t)); err != nil {
		t.Fatal(err)
	}
	if got := f.Git("status", "--porcelain", "--untracked-files=all", "--ignored"); got != "" {
		t.Errorf("after the switch git status says:\n%s", got)
	}
	for i := range dirs {
		p := filepath.Join(f.Dir, fmt.Sprintf("d%03d", i), "f.txt")
		if got, err := os.ReadFile(p); err != nil || string(got) != fmt.Sprintf("new %d\n", i) {
			t.Fatalf("%s holds %q (%v)", p, got, err)
		}
	}
}
