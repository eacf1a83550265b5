package gittools

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/grove-mcp/grove/gittools/internal/history"

	"github.com/grove-mcp/grove/gittools/internal/repo"

	"github.com/google/go-cmp/cmp"

	"github.com/grove-mcp/grove/scope"
)

// trustYoungFiles makes the caches trust the stat data of files written a moment ago, as the tests' are.
func trustYoungFiles(t *testing.T) {
	old := repo.RacyWindow
	repo.RacyWindow = 0
	t.Cleanup(func() { repo.RacyWindow = old })
}

// remembered reports whether r holds a remembered discovery.
func remembered(r *Repos) bool {
	for _, rp := range r.repos.All() {
		if len(rp.Discovered) > 0 {
			return true
		}
	}
	return false
}

func TestRememberedDiscoveryStillRefusesRepositoriesMovedOutside(t *testing.T) {
	trustYoungFiles(t)
	for _, tt := range []struct {
		name  string
		setup func(f *fixture, outside string)
	}{
		{"gitdir file pointing outside", func(f *fixture, outside string) {
			os.Rename(filepath.Join(f.dir, ".git"), filepath.Join(outside, "real.git"))
			os.WriteFile(filepath.Join(f.dir, ".git"), []byte("gitdir: "+filepath.Join(outside, "real.git")+"\n"), 0o644)
		}},
		{".git symlink pointing outside", func(f *fixture, outside string) {
			os.Rename(filepath.Join(f.dir, ".git"), filepath.Join(outside, "real.git"))
			os.Symlink(filepath.Join(outside, "real.git"), filepath.Join(f.dir, ".git"))
		}},
		{"alternates outside", func(f *fixture, outside string) {
			os.MkdirAll(filepath.Join(outside, "objects"), 0o755)
			os.WriteFile(filepath.Join(f.dir, ".git", "objects", "info", "alternates"), []byte(filepath.Join(outside, "objects")+"\n"), 0o644)
		}},
		{"core.worktree elsewhere", func(f *fixture, outside string) {
			f.git("config", "core.worktree", outside)
		}},
		{"commondir outside", func(f *fixture, outside string) {
			os.WriteFile(filepath.Join(f.dir, ".git", "commondir"), []byte(outside+"\n"), 0o644)
		}},
		{"objects symlinked outside", func(f *fixture, outside string) {
			os.Rename(filepath.Join(f.dir, ".git", "objects"), filepath.Join(outside, "objects"))
			os.Symlink(filepath.Join(outside, "objects"), filepath.Join(f.dir, ".git", "objects"))
		}},
		{"config symlinked outside", func(f *fixture, outside string) {
			os.Rename(filepath.Join(f.dir, ".git", "config"), filepath.Join(outside, "config"))
			os.Symlink(filepath.Join(outside, "config"), filepath.Join(f.dir, ".git", "config"))
		}},
		{"worktree swapped for a symlink", func(f *fixture, outside string) {
			os.Rename(f.dir, filepath.Join(outside, "repo"))
			os.Symlink(filepath.Join(outside, "repo"), f.dir)
		}},
		{"sub directory swapped for a symlink", func(f *fixture, outside string) {
			os.Rename(filepath.Join(f.dir, "sub"), filepath.Join(outside, "sub"))
			os.Symlink(filepath.Join(outside, "sub"), filepath.Join(f.dir, "sub"))
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			f.write("a.txt", "a\n", "sub/b.txt", "b\n")
			f.commit("initial")
			outside := filepath.Join(filepath.Dir(f.dir), "outside")
			os.MkdirAll(outside, 0o755)
			sc := scopeOf(t, f.dir)
			r := New(Options{Scope: scope.Static(sc)})
			defer r.Close()
			repoPath := filepath.Join(f.dir, "sub")
			if _, _, err := r.logTool(testCtx(t), nil, sc, history.LogArgs{RepoPath: repoPath}); err != nil {
				t.Fatal(err)
			}
			if !remembered(r) {
				t.Fatal("the discovery was not remembered")
			}
			tt.setup(f, outside)
			_, _, err := r.logTool(testCtx(t), nil, sc, history.LogArgs{RepoPath: repoPath})
			if oe := (*repo.OutsideRootsError)(nil); errors.As(err, &oe) {
				checkOutsideRootsError(t, f, err, outside)
				return
			}
			if !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("log after the change: err = %v, want not found", err)
			}
		})
	}
}

func TestRememberedDiscoveryFindsANearerRepository(t *testing.T) {
	trustYoungFiles(t)
	f := newFixture(t)
	f.write("sub/b.txt", "b\n")
	f.commit("outer")
	r, sc := f.repos()
	sub := filepath.Join(f.dir, "sub")
	if _, out, err := r.logTool(testCtx(t), nil, sc, history.LogArgs{RepoPath: sub}); err != nil || len(out.Commits) != 1 {
		t.Fatalf("outer log: %v, %d commits", err, len(out.Commits))
	}
	f.gitIn(sub, "init", "-q", "-b", "main")
	_, out, err := r.logTool(testCtx(t), nil, sc, history.LogArgs{RepoPath: sub})
	if err != nil || len(out.Commits) != 0 {
		t.Errorf("log in the new inner repository: %v, %d commits, want its empty history", err, len(out.Commits))
	}
}

func TestCachedLogFollowsHead(t *testing.T) {
	trustYoungFiles(t)
	f := newFixture(t)
	f.write("a.txt", "a\n")
	f.commit("one")
	r, sc := f.repos()
	check := func(step string) {
		t.Helper()
		for range 2 { // the second call answers from the caches
			_, out, err := r.logTool(testCtx(t), nil, sc, history.LogArgs{MaxCount: 100})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, c := range out.Commits {
				got = append(got, c.Hash+" "+c.Subject+" "+strings.Join(c.Parents, ","))
			}
			if diff := cmp.Diff(gitLogLines(f, "%H %s %P"), got); diff != "" {
				t.Errorf("%s: log mismatch (-git +grove):\n%s", step, diff)
			}
		}
	}
	check("first commit")
	f.commit("two")
	check("new commit")
	f.git("switch", "-q", "-c", "feature", "HEAD~1")
	check("other branch")
	f.commit("three")
	check("commit on the other branch")
	f.git("switch", "-q", "-c", "topic/nested")
	check("nested branch")
	f.commit("nested") // rewrites refs/heads/topic/nested, not refs/heads: only the head cache's stamps see it
	check("commit on the nested branch")
	f.git("switch", "-q", "--detach", "main")
	check("detached")
	f.git("switch", "-q", "main")
	f.git("pack-refs", "--all")
	check("packed refs")
	f.commit("four")
	check("commit after packing")
}

func TestCommitCacheGenerations(t *testing.T) {
	var cc repo.CommitCache
	f := newFixture(t)
	f.write("a.txt", "a\n")
	f.commit("one")
	r, sc := f.repos()
	rp, unlock, err := r.open(testCtx(t), sc, "")
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	h, _, err := rp.HeadHash()
	if err != nil {
		t.Fatal(err)
	}
	e, err := rp.CachedCommit(h)
	if err != nil {
		t.Fatal(err)
	}
	cc.Put(e)
	for i := range repo.CommitCacheGen {
		c := *e.C
		c.Hash[0], c.Hash[1] = byte(i), byte(i>>8)^0xff
		cc.Put(&repo.CachedCommit{C: &c})
	}
	if cc.Get(h) != e {
		t.Fatal("an entry of the old generation was lost")
	}
	if _, ok := cc.Cur[h]; !ok {
		t.Error("a hit in the old generation did not move the entry forward")
	}
	if got := len(cc.Cur) + len(cc.Old); got > 2*repo.CommitCacheGen {
		t.Errorf("cache holds %d entries, more than two generations", got)
	}
}

func TestRememberedDiscoveryIsKeyedByTheRoots(t *testing.T) {
	trustYoungFiles(t)
	f := newFixture(t)
	f.write("sub/b.txt", "b\n")
	f.commit("initial")
	r, sc := f.repos()
	if _, _, err := r.logTool(testCtx(t), nil, sc, history.LogArgs{}); err != nil {
		t.Fatal(err)
	}
	same := scopeOf(t, f.dir) // a new Scope with the same roots, as the server builds per request
	if got, ok := r.repos.Rediscover(same, repo.DiscoverKeyOf(same, "")); !ok || got.Worktree != f.dir || got.Loc.FS() == nil {
		t.Errorf("same roots: rediscover = %+v, %v; want the remembered repository", got, ok)
	}
	sub := filepath.Join(f.dir, "sub")
	narrower := scopeOf(t, sub)
	if _, ok := r.repos.Rediscover(narrower, repo.DiscoverKeyOf(narrower, sub)); ok {
		t.Error("a root below the repository reused the discovery")
	}
	if _, _, err := r.logTool(testCtx(t), nil, narrower, history.LogArgs{RepoPath: sub}); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("log under a root below the repository: err = %v, want not found", err)
	}
}
