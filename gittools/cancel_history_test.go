package gittools

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/grove-mcp/grove/gittools/internal/mergecmd"
	"github.com/grove-mcp/grove/gittools/internal/stashcmd"
	"github.com/grove-mcp/grove/scope"
)

// cancelAtCtx is cancelled at its nth check: the nth call of Err (counting from 0) and every later one
// report context.Canceled, and Done is closed from then on.
type cancelAtCtx struct {
	context.Context
	left atomic.Int64
	done chan struct{}
	once sync.Once
}

func newCancelAtCtx(n int) *cancelAtCtx {
	c := &cancelAtCtx{Context: context.Background(), done: make(chan struct{})}
	c.left.Store(int64(n))
	return c
}

func (c *cancelAtCtx) Err() error {
	if c.left.Add(-1) >= 0 {
		return nil
	}
	c.once.Do(func() { close(c.done) })
	return context.Canceled
}

func (c *cancelAtCtx) Done() <-chan struct{} { return c.done }

func (c *cancelAtCtx) tripped() bool { return c.left.Load() < 0 }

// repoSnapshot is everything of a repository a cancelled operation must leave alone: every worktree file
// (mode and bytes) and every file under .git but the object store (refs, packed-refs, reflogs, the index's
// bytes, HEAD, ORIG_HEAD, MERGE_HEAD and the other state files). Objects written and left unreferenced are
// allowed, as git leaves them too.
func repoSnapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel == ".git/objects" {
				return filepath.SkipDir
			}
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		out[rel] = fi.Mode().String() + " " + string(data)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// cancelEverywhere runs op with a context cancelled at its 0th, 1st, 2nd … check until op runs to its end.
// Every cancelled run must fail with context.Canceled and leave the repository exactly as it was; it returns
// the number of checks the finished run made.
func cancelEverywhere(t *testing.T, dir string, op func(context.Context) error) int {
	t.Helper()
	before := repoSnapshot(t, dir)
	for n := 0; n < 100_000; n++ {
		ctx := newCancelAtCtx(n)
		err := op(ctx)
		if err == nil {
			return n
		}
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("cancelled at check %d: the error is not context.Canceled: %v", n, err)
		}
		if !ctx.tripped() {
			t.Fatalf("failed at check %d without being cancelled: %v", n, err)
		}
		if diff := cmp.Diff(before, repoSnapshot(t, dir)); diff != "" {
			t.Fatalf("cancelled at check %d (%v), the repository changed (-before +after):\n%s", n, err, diff)
		}
	}
	t.Fatal("the operation never finished")
	return 0
}

// divergedFixture is a repository where master and topic each changed files since they diverged; with
// conflict, both changed conflict.txt differently.
func divergedFixture(t *testing.T, conflict bool) *writeFixture {
	base := map[string]string{"conflict.txt": "one\ntwo\nthree\n", "gone.txt": "gone\n", "d/keep.txt": "keep\n"}
	topic := map[string]string{"topic.txt": "topic\n", "d/new.txt": "new on topic\n", "gone.txt": ""}
	master := map[string]string{"master.txt": "master\n", "d/keep.txt": "keep, edited\n"}
	if conflict {
		topic["conflict.txt"] = "one\nTWO topic\nthree\n"
		master["conflict.txt"] = "one\nTWO master\nthree\n"
	}
	f := branchFixture(t, base, topic, master)
	f.write(map[string]string{"untracked.txt": "local\n"})
	return f
}

func TestCancelledMergeLeavesNothing(t *testing.T) {
	for _, conflict := range []bool{false, true} {
		t.Run(map[bool]string{false: "clean", true: "conflicts"}[conflict], func(t *testing.T) {
			f := divergedFixture(t, conflict)
			sc := scopeOf(t, f.root)
			r := New(Options{Scope: scope.Static(sc)})
			defer r.Close()
			var out mergecmd.Out
			n := cancelEverywhere(t, f.dir, func(ctx context.Context) (err error) {
				_, out, err = r.mergeTool(ctx, nil, sc, mergecmd.MergeArgs{RepoPath: f.dir, Revision: "topic"})
				return err
			})
			want := map[bool]string{false: mergecmd.ResultMerged, true: mergecmd.ResultConflicts}[conflict]
			if out.Result != want {
				t.Fatalf("after %d checks the merge finished with %+v, want %s", n, out, want)
			}
			_, err := f.gitRun("rev-parse", "-q", "--verify", "MERGE_HEAD")
			if (err == nil) != conflict {
				t.Errorf("MERGE_HEAD present: %v, want %v", err == nil, conflict)
			}
			t.Logf("%d checks", n)
		})
	}
}

func TestCancelledPickLeavesNothing(t *testing.T) {
	for _, tc := range []struct {
		name     string
		conflict bool
		revert   bool
		revs     []string
		want     string
	}{
		{"one", false, false, []string{"topic"}, mergecmd.ResultMerged},
		{"conflicts", true, false, []string{"topic"}, mergecmd.ResultConflicts},
		{"sequence", false, false, []string{"topic~1", "topic"}, mergecmd.ResultMerged},
		{"revert", false, true, []string{"master"}, mergecmd.ResultMerged},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := divergedFixture(t, tc.conflict)
			if tc.name == "sequence" {
				f.git("checkout", "-q", "topic")
				f.commitFiles("topic again", map[string]string{"topic2.txt": "more\n"})
				f.git("checkout", "-q", "master")
			}
			sc := scopeOf(t, f.root)
			r := New(Options{Scope: scope.Static(sc)})
			defer r.Close()
			var out mergecmd.Out
			n := cancelEverywhere(t, f.dir, func(ctx context.Context) (err error) {
				args := mergecmd.PickArgs{RepoPath: f.dir, Revisions: tc.revs}
				if tc.revert {
					_, out, err = r.revertTool(ctx, nil, sc, args)
				} else {
					_, out, err = r.cherryPickTool(ctx, nil, sc, args)
				}
				return err
			})
			if out.Result != tc.want {
				t.Fatalf("after %d checks the pick finished with %+v, want %s", n, out, tc.want)
			}
			if tc.want == mergecmd.ResultMerged && len(out.Picked) != len(tc.revs) {
				t.Errorf("picked %v, want %d commits", out.Picked, len(tc.revs))
			}
			t.Logf("%d checks", n)
		})
	}
}

func TestCancelledStashPushLeavesNothing(t *testing.T) {
	f := divergedFixture(t, false)
	f.write(map[string]string{"d/keep.txt": "staged\n", "conflict.txt": "edited\n", "dir/u.txt": "untracked too\n"})
	f.git("add", "d/keep.txt")
	sc := scopeOf(t, f.root)
	r := New(Options{Scope: scope.Static(sc)})
	defer r.Close()
	var out stashcmd.Out
	n := cancelEverywhere(t, f.dir, func(ctx context.Context) (err error) {
		_, out, err = r.stashTool(ctx, nil, sc, stashcmd.Args{RepoPath: f.dir, IncludeUntracked: true, Message: "wip"})
		return err
	})
	if out.Stash == "" || f.git("status", "--porcelain", "-uall") != "" || !strings.HasPrefix(f.git("stash", "list"), "stash@{0}: On master: wip") {
		t.Fatalf("after %d checks the stash finished with %+v; status %q", n, out, f.git("status", "--porcelain", "-uall"))
	}
	t.Logf("%d checks", n)
}
