package gittools

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/google/go-cmp/cmp"

	"github.com/grove-mcp/grove/gittools/internal/history"
	"github.com/grove-mcp/grove/gittools/internal/repo"
	"github.com/grove-mcp/grove/roots"
)

// pathLog runs a path-limited log as the tool does and returns the hashes.
func pathLog(t *testing.T, r *Repos, sc *roots.Scope, f *fixture, p string) []string {
	t.Helper()
	rp, unlock, err := r.open(testCtx(t), sc, f.Dir)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	q, err := history.NewQuery(rp, sc, history.LogArgs{Path: p, MaxCount: 100})
	if err != nil {
		t.Fatal(err)
	}
	q.Cache = &r.history
	out, err := history.Log(rp, testCtx(t), q)
	if err != nil {
		t.Fatal(err)
	}
	got := []string{}
	for _, c := range out.Commits {
		got = append(got, c.Hash)
	}
	return got
}

// waitBuilds makes r's history builds run on goroutines the test can wait for.
type waitBuilds struct{ wg sync.WaitGroup }

func (w *waitBuilds) start(_ string, f func()) { w.wg.Go(f) }

func (w *waitBuilds) wait(t *testing.T) {
	t.Helper()
	done := make(chan struct{})
	go func() { w.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("the history build did not end")
	}
}

func TestLogIndexFollowsNewCommits(t *testing.T) {
	f := historyFixture(t)
	r, sc := f.repos()
	var builds waitBuilds
	r.history.Background = builds.start
	want := strings.Fields(f.git("log", "--format=%H", "--", "src/a.go"))
	if diff := cmp.Diff(want, pathLog(t, r, sc, f, "src/a.go")); diff != "" {
		t.Fatalf("first call mismatch (-git +grove):\n%s", diff)
	}
	builds.wait(t)
	rp := openRepo(t, r, sc, f)
	head := plumbing.NewHash(strings.TrimSpace(f.git("rev-parse", "HEAD")))
	if !indexHas(rp, r, head) {
		t.Fatal("the first history query did not index HEAD's history")
	}
	f.write("src/a.go", "package a\n\nfunc A() { println(2) }\n")
	f.commit("change A again")
	want = strings.Fields(f.git("log", "--format=%H", "--", "src/a.go"))
	if diff := cmp.Diff(want, pathLog(t, r, sc, f, "src/a.go")); diff != "" {
		t.Fatalf("after a new commit, mismatch (-git +grove):\n%s", diff)
	}
	builds.wait(t)
	if newHead := plumbing.NewHash(want[0]); !indexHas(rp, r, newHead) {
		t.Error("the index was not extended from the new HEAD")
	}
	if diff := cmp.Diff(want, pathLog(t, r, sc, f, "src/a.go")); diff != "" {
		t.Errorf("on the extended index, mismatch (-git +grove):\n%s", diff)
	}
}

func indexHas(rp *repo.Repo, r *Repos, h plumbing.Hash) bool {
	rp.Lock()
	defer rp.Unlock()
	x := r.history.Index(rp)
	return x != nil && x.Has(h)
}

func TestLogIndexDroppedWhenIdle(t *testing.T) {
	old := history.IdleDrop
	history.IdleDrop = 50 * time.Millisecond
	defer func() { history.IdleDrop = old }()
	f := historyFixture(t)
	r, sc := f.repos()
	var builds waitBuilds
	r.history.Background = builds.start
	pathLog(t, r, sc, f, "src/a.go")
	builds.wait(t)
	deadline := time.After(30 * time.Second)
	for r.history.Budget.Used() != 0 {
		select {
		case <-deadline:
			t.Fatalf("an idle index still holds %d bytes", r.history.Budget.Used())
		case <-time.After(10 * time.Millisecond):
		}
	}
	want := strings.Fields(f.git("log", "--format=%H", "--", "src/a.go"))
	if diff := cmp.Diff(want, pathLog(t, r, sc, f, "src/a.go")); diff != "" {
		t.Errorf("after the drop, mismatch (-git +grove):\n%s", diff)
	}
}

func TestLogIndexOverBudget(t *testing.T) {
	f := historyFixture(t)
	r, sc := f.repos()
	r.history.Budget.Total = 300 // a commit or two
	rp := openRepo(t, r, sc, f)
	r.history.Build(rp, plumbing.NewHash(strings.TrimSpace(f.git("rev-parse", "HEAD"))))
	if used := r.history.Budget.Used(); used > 300 {
		t.Errorf("the index holds %d bytes, over its 300-byte budget", used)
	}
	for _, p := range []string{"src/a.go", "src", "README", "other.txt"} {
		want := strings.Fields(f.git("log", "--format=%H", "--", p))
		if diff := cmp.Diff(want, pathLog(t, r, sc, f, p)); diff != "" {
			t.Errorf("log -- %s on a partial index, mismatch (-git +grove):\n%s", p, diff)
		}
	}
}

func TestLogIndexBuildStopsOnClose(t *testing.T) {
	f := historyFixture(t)
	r, sc := f.repos()
	pathLog(t, r, sc, f, "src/a.go") // starts a background build owned by r
	done := make(chan error, 1)
	go func() { done <- r.Close() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Close did not return while a history build ran")
	}
	if used := r.history.Budget.Used(); used != 0 {
		t.Errorf("after Close the indexes hold %d bytes", used)
	}
}

func TestLogBloomConfig(t *testing.T) {
	f := historyFixture(t)
	f.git("commit-graph", "write", "--reachable", "--changed-paths")
	r, sc := f.repos() // one server throughout: a config change must be seen without a new graph file
	for _, tt := range []struct {
		config []string
		want   bool
	}{
		{nil, true},
		{[]string{"commitGraph.changedPathsVersion", "-1"}, true},
		{[]string{"commitGraph.changedPathsVersion", "1"}, true},
		{[]string{"commitGraph.changedPathsVersion", "2"}, false}, // git 2.39 writes version 1
		{[]string{"commitGraph.changedPathsVersion", "0"}, false},
		{[]string{"commitGraph.readChangedPaths", "false"}, false},
		{[]string{"commitGraph.changedPathsVersion", "7"}, false},
	} {
		t.Run(strings.Join(tt.config, "="), func(t *testing.T) {
			_ = gitCmd(f, "config", "--unset-all", "commitGraph.changedPathsVersion").Run() // status 5: not set
			_ = gitCmd(f, "config", "--unset-all", "commitGraph.readChangedPaths").Run()
			if tt.config != nil {
				f.git("config", tt.config[0], tt.config[1])
			}
			rp, unlock, err := r.open(testCtx(t), sc, f.Dir)
			if err != nil {
				t.Fatal(err)
			}
			got := r.history.Graph(rp).HasFilters()
			unlock()
			if got != tt.want {
				t.Errorf("filters read = %v, want %v", got, tt.want)
			}
			want := strings.Fields(f.git("log", "--format=%H", "--", "src/a.go"))
			if diff := cmp.Diff(want, pathLog(t, r, sc, f, "src/a.go")); diff != "" {
				t.Errorf("mismatch (-git +grove):\n%s", diff)
			}
		})
	}
}

func TestBlameStartsIndexBuild(t *testing.T) {
	f := historyFixture(t)
	r, sc := f.repos()
	var builds waitBuilds
	r.history.Background = builds.start
	want := gitBlameCommits(t, f.dir, f.home, "HEAD", "src/a.go")
	if diff := cmp.Diff(want, groveBlameCommits(t, r, sc, "", "src/a.go")); diff != "" {
		t.Fatalf("first blame mismatch (-git +grove):\n%s", diff)
	}
	builds.wait(t)
	rp := openRepo(t, r, sc, f)
	head := plumbing.NewHash(strings.TrimSpace(f.git("rev-parse", "HEAD")))
	if !indexHas(rp, r, head) {
		t.Fatal("the first blame did not index HEAD's history")
	}
	if diff := cmp.Diff(want, groveBlameCommits(t, r, sc, "", "src/a.go")); diff != "" {
		t.Errorf("blame on the index mismatch (-git +grove):\n%s", diff)
	}
}
