package gittools

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/grove-mcp/grove/scope"
)

func TestWarm(t *testing.T) {
	f := newFixture(t)
	f.write("sub/a.txt", "a\n")
	f.commit("initial")
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "x"), nil, 0o644)
	for _, tt := range []struct {
		name string
		dirs []string
		want bool // the repository is open and warm afterwards
	}{
		{"worktree", []string{f.dir}, true},
		{"subdirectory", []string{filepath.Join(f.dir, "sub")}, true},
		{"repeated", []string{f.dir, f.dir, filepath.Join(f.dir, "sub")}, true},
		{"outside the roots", []string{outside}, false},
		{"missing", []string{filepath.Join(f.dir, "nope")}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r, sc := f.repos()
			for _, d := range tt.dirs {
				r.Warm(sc, d)
			}
			r.wg.Wait() // background work of Warm and the warm-up it starts
			if diff := cmp.Diff(tt.want, warmRepos(r) == 1); diff != "" {
				t.Errorf("warm mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestWarmNotARepository(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	sc := scopeOf(t, dir)
	r := New(Options{Scope: scope.Static(sc)})
	defer r.Close()
	r.Warm(sc, dir)
	r.wg.Wait()
	if n := warmRepos(r); n != 0 {
		t.Errorf("warmed %d repositories in a plain directory, want 0", n)
	}
}

func TestWarmAfterClose(t *testing.T) {
	f := newFixture(t)
	f.write("a.txt", "a\n")
	f.commit("initial")
	r, sc := f.repos()
	r.Close()
	r.Warm(sc, f.dir) // must neither panic nor start work
	r.wg.Wait()
	if n := warmRepos(r); n != 0 {
		t.Errorf("warmed %d repositories after Close, want 0", n)
	}
}

// warmRepos counts the open repositories whose pack index was loaded.
func warmRepos(r *Repos) int {
	n := 0
	for _, rp := range r.repos.All() {
		rp.Lock()
		if rp.Warmed {
			n++
		}
		rp.Unlock()
	}
	return n
}

// A call that opens a repository holds its lock before the warm-up it starts, which runs once the call lets go.
func TestWarmUpAfterTheCall(t *testing.T) {
	f := newFixture(t)
	f.write("a.txt", "a\n")
	f.commit("initial")
	r, sc := f.repos()
	defer r.Close()
	rp, unlock, err := r.open(testCtx(t), sc, f.dir)
	if err != nil {
		t.Fatal(err)
	}
	warmed := rp.Warmed // read under the call's lock
	unlock()
	if warmed {
		t.Error("the warm-up ran before the call that opened the repository had it")
	}
	r.wg.Wait()
	if n := warmRepos(r); n != 1 {
		t.Errorf("warmed %d repositories after the call, want 1", n)
	}
}
