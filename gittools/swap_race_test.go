//go:build linux

package gittools

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/grove-mcp/grove/gittools/internal/diff"
	"github.com/grove-mcp/grove/gittools/internal/gittest"
	"github.com/grove-mcp/grove/gittools/internal/history"
	"github.com/grove-mcp/grove/gittools/internal/status"
	"github.com/grove-mcp/grove/gittools/internal/writecmd"
	"github.com/grove-mcp/grove/roots"
	"github.com/grove-mcp/grove/scope"

	"golang.org/x/sys/unix"
)

// secret marks everything of the repository outside the roots: file names and contents, commit messages,
// branch names. No answer may ever hold it.
const secret = "SECRETOUTSIDE"

// swapRounds is how many times a path of the repository is swapped for a symlink to the outside one.
const swapRounds = 2000

// swapPaths are the paths swapped (relative to the root), each for a symlink to the same path in the
// repository outside.
var swapPaths = []string{"repo", "repo/.git", "repo/.git/objects", "repo/.git/refs/heads", "repo/.git/objects/pack"}

// TestSwapRaceNeverLeavesTheRoot swaps the repository's directory, its .git, objects, refs/heads and pack
// directory for symlinks to a repository outside the roots, 2,000 times, while git_status, git_log,
// git_show and git_diff read and git_add and git_commit write, without pause. No answer may hold anything of
// the outside repository, and its tree must be byte-identical afterwards.
func TestSwapRaceNeverLeavesTheRoot(t *testing.T) {
	isolateGit(t)
	in, out := swapRepo(t, "inside"), swapRepo(t, secret)
	root := filepath.Dir(in.Dir)
	for i := range 400 { // for git_add to stage, one a call, without the test writing in the worktree meanwhile
		in.Write(fmt.Sprintf("new/%03d.txt", i), fmt.Sprintf("new %d\n", i))
	}
	sc := scopeOf(t, root)
	checkDetectorSeesOutside(t, out.Dir)
	outsideTree := treeSnapshot(t, filepath.Dir(out.Dir))

	r := New(Options{Scope: scope.Static(sc)})
	defer r.Close()
	ctx, cancel := context.WithCancel(testCtx(t))
	defer cancel()
	var swapped atomic.Bool // a symlink is in place
	var duringSwap, calls atomic.Int64
	leaks := make(chan string, 16)
	var wg sync.WaitGroup
	ops := swapOps(r, sc, in.Dir)
	answered := make([]atomic.Int64, len(ops))
	for i, op := range ops {
		wg.Go(func() {
			for n := 0; ctx.Err() == nil; n++ {
				before := swapped.Load()
				answer, err := op.call(ctx, n)
				if before || swapped.Load() {
					duringSwap.Add(1)
				}
				calls.Add(1)
				if err == nil {
					answered[i].Add(1)
				}
				if leak := leaked(answer, err, filepath.Dir(out.Dir)); leak != "" {
					select {
					case leaks <- op.name + ": " + leak:
					default:
					}
				}
			}
		})
	}
	swapper(t, root, filepath.Dir(out.Dir), &swapped)
	cancel()
	wg.Wait()
	close(leaks)
	for leak := range leaks {
		t.Error(leak)
	}
	if got := treeSnapshot(t, filepath.Dir(out.Dir)); !equalTrees(outsideTree, got) {
		t.Error("the tree outside the roots changed")
	}
	if calls.Load() < int64(len(ops)) || duringSwap.Load() == 0 {
		t.Errorf("%d calls, %d while a path was swapped: the race did not happen", calls.Load(), duringSwap.Load())
	}
	t.Logf("%d calls, %d while a path was swapped", calls.Load(), duringSwap.Load())
	for i, op := range ops {
		t.Logf("%s answered %d times", op.name, answered[i].Load())
		if answered[i].Load() == 0 && op.name != "git_commit" { // a commit may always meet a swap, or nothing staged
			t.Errorf("%s never answered: the repository was unusable throughout", op.name)
		}
	}
	if _, _, err := r.logTool(testCtx(t), nil, sc, history.LogArgs{RepoPath: in.Dir, MaxCount: 1}); err != nil {
		t.Errorf("git_log after the race: %v", err)
	}
}

// swapRepo makes a repository whose names, contents and messages all hold mark, packed (so that the pack
// directory matters) with one more loose commit, on branch main and a branch named after mark.
func swapRepo(t *testing.T, mark string) *gittest.Fixture {
	f := gittest.New(t)
	for i := range 3 {
		f.Write(mark+".txt", fmt.Sprintf("%s %d\n", mark, i), "dir/"+mark+".go", "package "+strings.ToLower(mark)+"\n")
		f.Commit(fmt.Sprintf("%s commit %d", mark, i))
	}
	f.Git("repack", "-adq")
	f.Write(mark+".txt", mark+" loose\n")
	f.Commit(mark + " loose commit")
	f.Git("branch", strings.ToLower(mark)+"-branch")
	f.Write(mark+".txt", mark+" modified in the worktree\n")
	return f
}

// swapOp is one tool called in a loop during the race; call returns the answer (nil on error).
type swapOp struct {
	name string
	call func(ctx context.Context, n int) (any, error)
}

func swapOps(r *Repos, sc *roots.Scope, repoDir string) []swapOp {
	return []swapOp{
		{"git_status", func(ctx context.Context, _ int) (any, error) {
			_, o, err := r.status(ctx, nil, sc, status.StatusArgs{RepoPath: repoDir})
			return o, err
		}},
		{"git_log", func(ctx context.Context, _ int) (any, error) {
			_, o, err := r.logTool(ctx, nil, sc, history.LogArgs{RepoPath: repoDir, MaxCount: 10})
			return o, err
		}},
		{"git_show", func(ctx context.Context, _ int) (any, error) {
			_, o, err := r.showTool(ctx, nil, sc, diff.ShowArgs{RepoPath: repoDir, Revision: "HEAD~1"})
			return o, err
		}},
		{"git_diff", func(ctx context.Context, _ int) (any, error) {
			_, o, err := r.diffTool(ctx, nil, sc, diff.DiffArgs{RepoPath: repoDir})
			return o, err
		}},
		{"git_add", func(ctx context.Context, n int) (any, error) {
			_, o, err := r.add(ctx, nil, sc, writecmd.AddArgs{RepoPath: repoDir, Files: []string{fmt.Sprintf("new/%03d.txt", n%400)}})
			return o, err
		}},
		{"git_commit", func(ctx context.Context, n int) (any, error) {
			_, o, err := r.commitTool(ctx, nil, sc, writecmd.CommitArgs{RepoPath: repoDir, Message: fmt.Sprintf("race %d", n)})
			return o, err
		}},
	}
}

// swapper swaps each of swapPaths in turn for a symlink to its twin outside, swapRounds times: it exchanges
// the path and a symlink atomically (renameat2 RENAME_EXCHANGE, so the path never goes missing), leaves the
// symlink in place for a moment, and exchanges them back.
func swapper(t *testing.T, root, outside string, swapped *atomic.Bool) {
	for i := range swapRounds {
		rel := swapPaths[i%len(swapPaths)]
		p := filepath.Join(root, filepath.FromSlash(rel))
		link := p + ".link"
		if err := os.Symlink(filepath.Join(outside, filepath.FromSlash(rel)), link); err != nil {
			t.Fatalf("round %d: %v", i, err)
		}
		exchange(t, link, p)
		swapped.Store(true)
		time.Sleep(time.Millisecond)
		swapped.Store(false)
		exchange(t, link, p)
		if err := os.Remove(link); err != nil {
			t.Fatalf("round %d: %v", i, err)
		}
		time.Sleep(time.Millisecond / 2)
	}
}

// exchange swaps the directory entries a and b atomically.
func exchange(t *testing.T, a, b string) {
	t.Helper()
	if err := unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE); err != nil {
		t.Fatalf("exchanging %s and %s: %v", a, b, err)
	}
}

// leaked returns what of the outside repository an answer or error shows ("" when nothing): its mark, or its
// real path.
func leaked(answer any, err error, outside string) string {
	var text string
	if err != nil {
		text = err.Error()
	} else {
		data, jerr := json.Marshal(answer)
		if jerr != nil {
			return "answer not marshalled: " + jerr.Error()
		}
		text = string(data)
	}
	for _, s := range []string{secret, strings.ToLower(secret), outside} {
		if strings.Contains(text, s) {
			return fmt.Sprintf("%q in %.300s", s, text)
		}
	}
	return ""
}

// checkDetectorSeesOutside shows that leaked catches the outside repository when it is read: opened as a
// root of its own, its answers hold the mark.
func checkDetectorSeesOutside(t *testing.T, dir string) {
	t.Helper()
	sc := scopeOf(t, dir)
	r := New(Options{Scope: scope.Static(sc)})
	defer r.Close()
	ctx := testCtx(t)
	_, lo, err := r.logTool(ctx, nil, sc, history.LogArgs{})
	if leaked(lo, err, "/nonexistent") == "" {
		t.Fatalf("git_log of the outside repository shows no mark: %+v, %v", lo, err)
	}
	_, so, err := r.status(ctx, nil, sc, status.StatusArgs{})
	if leaked(so, err, "/nonexistent") == "" {
		t.Fatalf("git_status of the outside repository shows no mark: %+v, %v", so, err)
	}
}

// treeEntry is what treeSnapshot records of a path: its type and permission bits, and its content's or link
// target's hash.
type treeEntry struct {
	mode fs.FileMode
	sum  [32]byte
}

// treeSnapshot records every path below dir.
func treeSnapshot(t *testing.T, dir string) map[string]treeEntry {
	t.Helper()
	out := map[string]treeEntry{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		e := treeEntry{mode: fi.Mode()}
		switch {
		case fi.Mode().IsRegular():
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			e.sum = sha256.Sum256(data)
		case fi.Mode()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			e.sum = sha256.Sum256([]byte(target))
		}
		out[p] = e
		return nil
	})
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	return out
}

func equalTrees(a, b map[string]treeEntry) bool {
	if len(a) != len(b) {
		return false
	}
	for p, e := range a {
		if b[p] != e {
			return false
		}
	}
	return true
}
