package trigram

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestSearchLifecycle(t *testing.T) {
	root := tempDir(t)
	writeFiles(t, root, map[string]string{"a.go": "func alpha()", "sub/b.go": "func beta()", "bin.dat": "\x00\x01beta"})
	s := watched(t, root, Options{})
	tree := newTree(root)
	if _, ok := candidates(t, s, root, tree, "alpha"); ok {
		t.Fatal("the first search answered from an index: it must start the build and search the tree")
	}
	warm(t, s, root, tree)
	for _, tt := range []struct {
		pattern string
		want    []string
	}{
		{"alpha", []string{"a.go"}},
		{"beta", []string{"sub/b.go"}},
		{"func", []string{"a.go", "sub/b.go"}},
	} {
		got, ok := candidates(t, s, root, tree, tt.pattern)
		if !ok {
			t.Fatalf("%q: no index", tt.pattern)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%q mismatch (-want +got):\n%s", tt.pattern, diff)
		}
	}
	st := s.Stats()
	if len(st) != 1 || st[0].State != "ready" || st[0].Files != 2 || st[0].Skipped != 1 || st[0].TextBytes != int64(len("func alpha()func beta()")) || st[0].Bytes == 0 {
		t.Errorf("stats = %+v", st)
	}
}

// TestSearchFollowsChanges edits, creates, removes and renames files and directories, and checks
// that each search sees the tree as it is, at once.
func TestSearchFollowsChanges(t *testing.T) {
	root := tempDir(t)
	writeFiles(t, root, map[string]string{"a.go": "alpha", "d/b.go": "beta", "d/e/c.go": "gamma"})
	s := watched(t, root, Options{})
	tree := newTree(root)
	warm(t, s, root, tree)
	step := func(name string, change func(), pattern string, want ...string) {
		t.Helper()
		change()
		got, ok := candidates(t, s, root, tree, pattern)
		if !ok {
			t.Fatalf("%s: no index", name)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: %q mismatch (-want +got):\n%s", name, pattern, diff)
		}
	}
	abs := func(rel string) string { return filepath.Join(root, filepath.FromSlash(rel)) }
	step("edit", func() { writeFiles(t, root, map[string]string{"a.go": "delta"}) }, "alpha|delta", "a.go")
	step("create", func() { writeFiles(t, root, map[string]string{"d/new.go": "delta"}) }, "delta", "a.go", "d/new.go")
	step("remove", func() { os.Remove(abs("a.go")) }, "delta", "d/new.go")
	step("rename file", func() { os.Rename(abs("d/new.go"), abs("moved.go")) }, "delta", "moved.go")
	step("new directory", func() { writeFiles(t, root, map[string]string{"x/y/z.go": "delta"}) }, "delta", "moved.go", "x/y/z.go")
	step("rename directory", func() { os.Rename(abs("d"), abs("dd")) }, "beta|gamma", "dd/b.go", "dd/e/c.go")
	step("remove directory", func() { os.RemoveAll(abs("dd/e")) }, "beta|gamma", "dd/b.go")
	step("binary", func() { writeFiles(t, root, map[string]string{"dd/b.go": "beta\x00"}) }, "beta", []string(nil)...)
	step("symlink", func() { os.Symlink(abs("moved.go"), abs("link.go")) }, "delta", "moved.go", "x/y/z.go")
	step("fifo", func() {
		if err := mkfifo(abs("pipe.go")); err != nil {
			t.Skip("no FIFOs here:", err)
		}
	}, "delta", "moved.go", "x/y/z.go")
	if n := tree.readCount("pipe.go"); n != 0 {
		t.Errorf("the FIFO was opened %d times", n)
	}
}

// TestSearchFresh writes a file and searches at once, 1,000 times: the write is always seen, though
// its event may not have been read from inotify yet when the search starts.
func TestSearchFresh(t *testing.T) {
	root := tempDir(t)
	writeFiles(t, root, map[string]string{"a.go": "start", "b.go": "other"})
	s := watched(t, root, Options{})
	tree := newTree(root)
	warm(t, s, root, tree)
	n := 1000
	if testing.Short() {
		n = 100
	}
	for i := range n {
		token := fmt.Sprintf("tok%06dx", i)
		name := []string{"a.go", "b.go", fmt.Sprintf("new%d.go", i%7)}[i%3]
		if err := os.WriteFile(filepath.Join(root, name), []byte("x "+token+" y"), 0o644); err != nil {
			t.Fatal(err)
		}
		got, ok := candidates(t, s, root, tree, token)
		if !ok {
			t.Fatalf("round %d: no index", i)
		}
		if len(got) != 1 || got[0] != name {
			t.Fatalf("round %d: %s written just before the search, candidates %q", i, name, got)
		}
	}
}

// fakeFeed is a Feed whose answers a test sets.
type fakeFeed struct {
	mu     sync.Mutex // guards the fields below
	paths  []string
	lost   bool
	closed bool
}

func (f *fakeFeed) set(paths []string, lost bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.paths, f.lost = paths, lost
}

func (f *fakeFeed) isClosed() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.closed
}

func (f *fakeFeed) Sync(ctx context.Context) ([]string, bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	p, l := f.paths, f.lost
	f.paths, f.lost = nil, false
	return p, l, ctx.Err()
}
func (f *fakeFeed) Cover([]string) bool { return true }
func (f *fakeFeed) Close() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.closed = true
}

func fakeIndexes(t *testing.T, opts Options) (*Indexes, *fakeFeed) {
	feed := &fakeFeed{}
	opts.Watch = func(string) Feed { return feed }
	s := NewIndexes(opts)
	s.builds = make(chan string, 64)
	t.Cleanup(s.Close)
	return s, feed
}

func TestSearchLostEventsRebuild(t *testing.T) {
	root := tempDir(t)
	writeFiles(t, root, map[string]string{"a.go": "alpha"})
	s, feed := fakeIndexes(t, Options{})
	tree := newTree(root)
	warm(t, s, root, tree)
	writeFiles(t, root, map[string]string{"a.go": "omega"}) // the event is lost:
	feed.set(nil, true)
	if _, ok := candidates(t, s, root, tree, "omega"); ok {
		t.Fatal("answered from an index after events were lost")
	}
	warm(t, s, root, tree)
	if got, _ := candidates(t, s, root, tree, "omega"); !cmp.Equal(got, []string{"a.go"}) {
		t.Errorf("after the rebuild: candidates %q, want [a.go]", got)
	}
	feed.set(make([]string, maxInline+1), false)
	if _, ok := candidates(t, s, root, tree, "omega"); ok {
		t.Fatal("applied more changes than maxInline before answering")
	}
}

func TestSearchIgnoreRulesRelist(t *testing.T) {
	root := tempDir(t)
	writeFiles(t, root, map[string]string{"a.go": "alpha", "b.go": "alpha"})
	s, feed := fakeIndexes(t, Options{})
	tree := newTree(root)
	warm(t, s, root, tree)
	feed.set([]string{filepath.Join(root, ".gitignore")}, false)
	if _, ok := candidates(t, s, root, tree, "alpha"); ok {
		t.Fatal("answered while the ignore rules changed")
	}
	warm(t, s, root, tree)
	if n := tree.readCount("a.go"); n != 1 {
		t.Errorf("a.go read %d times: a relist must keep the content it has", n)
	}
}

func TestSearchMemoryCap(t *testing.T) {
	root := tempDir(t)
	var text strings.Builder
	for i := range 20000 {
		fmt.Fprintf(&text, "fox%d ", i*7919)
	}
	writeFiles(t, root, map[string]string{"a.go": text.String()})
	s, _ := fakeIndexes(t, Options{MaxBytes: 4 << 10})
	tree := newTree(root)
	candidates(t, s, root, tree, "fox")
	select {
	case <-s.builds:
	case <-time.After(timeout):
		t.Fatal("the build did not end")
	}
	if _, ok := candidates(t, s, root, tree, "fox"); ok {
		t.Fatal("answered from an index past its memory cap")
	}
	st := s.Stats()
	if len(st) != 1 || !strings.Contains(st[0].State, "memory cap") {
		t.Errorf("stats = %+v, want the memory cap said", st)
	}
}

func TestSearchIdleDrop(t *testing.T) {
	root := tempDir(t)
	writeFiles(t, root, map[string]string{"a.go": "alpha"})
	s, feed := fakeIndexes(t, Options{Idle: 50 * time.Millisecond})
	tree := newTree(root)
	candidates(t, s, root, tree, "alpha") // starts the build
	select {
	case <-s.builds:
	case <-time.After(timeout):
		t.Fatal("the build did not end")
	}
	deadline := time.Now().Add(timeout)
	for len(s.Stats()) > 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if st := s.Stats(); len(st) != 0 || !feed.isClosed() || s.Used() != 0 {
		t.Fatalf("after the idle period: stats %+v, feed closed %v, used %d", st, feed.isClosed(), s.Used())
	}
}

// firstGrepUnderWay starts a root's first grep, which finds no index and starts its build; end ends it.
func firstGrepUnderWay(t *testing.T) (s *Indexes, root string, tree *osTree, end func()) {
	t.Helper()
	root = tempDir(t)
	writeFiles(t, root, map[string]string{"a.go": "func alpha()"})
	s = watched(t, root, Options{})
	tree = newTree(root)
	end = s.Begin()
	if _, ok := candidates(t, s, root, tree, "alpha"); ok {
		t.Fatal("the first search answered from an index")
	}
	return s, root, tree, end
}

// TestBuildWaitsForGreps checks that the build a grep starts waits until the greps under way have
// ended, so that it does not take the CPU of the grep that asked for it.
func TestBuildWaitsForGreps(t *testing.T) {
	s, root, tree, end := firstGrepUnderWay(t)
	ctx, cancel := context.WithTimeout(context.Background(), quietWait/4)
	defer cancel()
	if s.Wait(ctx, root) {
		t.Fatal("the index was built while a grep was under way")
	}
	end()
	end() // a second call does nothing
	if s.busy.Load() != 0 {
		t.Fatalf("greps under way = %d after end", s.busy.Load())
	}
	warm(t, s, root, tree)
	if _, ok := candidates(t, s, root, tree, "alpha"); !ok {
		t.Fatal("no index after the grep ended")
	}
}

// TestBuildWaitsForSettle checks that a build waits, past the end of the grep that started it, for
// the time Settle asked for (the grep's answer being written), and then starts by itself.
func TestBuildWaitsForSettle(t *testing.T) {
	s, root, tree, end := firstGrepUnderWay(t)
	const settle = 2 * time.Second
	s.Settle(settle)
	s.Settle(settle / 10) // a shorter wait does not cut the longer one
	end()
	ctx, cancel := context.WithTimeout(context.Background(), settle/4)
	defer cancel()
	if s.Wait(ctx, root) {
		t.Fatal("the index was built while an answer was being written")
	}
	warm(t, s, root, tree)
	if _, ok := candidates(t, s, root, tree, "alpha"); !ok {
		t.Fatal("no index once the answer was written")
	}
}

func TestSearchTotalCapOnGrowth(t *testing.T) {
	rootA, rootB := tempDir(t), tempDir(t)
	writeFiles(t, rootA, map[string]string{"a.go": "alpha"})
	writeFiles(t, rootB, map[string]string{"b.go": "beta"})
	feeds := map[string]*fakeFeed{rootA: {}, rootB: {}}
	s := NewIndexes(Options{Watch: func(root string) Feed { return feeds[root] }})
	s.builds = make(chan string, 64)
	t.Cleanup(s.Close)
	treeA, treeB := newTree(rootA), newTree(rootB)
	warm(t, s, rootA, treeA)
	warm(t, s, rootB, treeB)
	s.opts.Total = s.Used() + 4<<10 // no build runs now: both indexes are ready

	var text strings.Builder
	for i := range 20000 {
		fmt.Fprintf(&text, "fox%d ", i*7919)
	}
	writeFiles(t, rootB, map[string]string{"grown.go": text.String()})
	feeds[rootB].set([]string{filepath.Join(rootB, "grown.go")}, false)
	if _, ok := candidates(t, s, rootB, treeB, "fox"); ok {
		t.Fatal("answered from an index that grew past the total memory cap")
	}
	if used := s.Used(); used > s.opts.Total {
		t.Errorf("Used() = %d after the growth, above the total cap %d", used, s.opts.Total)
	}
	for _, st := range s.Stats() {
		if st.Root == rootB && !strings.Contains(st.State, "memory cap of all indexes") {
			t.Errorf("stats of the grown root = %+v, want the total cap said", st)
		}
	}
	if got, ok := candidates(t, s, rootA, treeA, "alpha"); !ok || !cmp.Equal(got, []string{"a.go"}) {
		t.Errorf("the other root: candidates %q (index used: %v), want [a.go] from its index", got, ok)
	}
	if _, ok := candidates(t, s, rootB, treeB, "fox"); ok {
		t.Error("the grown root was indexed again while its state is kept")
	}
}

func TestSearchRecountsGrowth(t *testing.T) {
	root := tempDir(t)
	var text strings.Builder
	for i := range 5000 {
		fmt.Fprintf(&text, "fox%d ", i*7919)
	}
	writeFiles(t, root, map[string]string{"a.go": "alpha", "big.go": text.String()})
	s, feed := fakeIndexes(t, Options{})
	tree := newTree(root)
	warm(t, s, root, tree)
	before := s.Used()
	writeFiles(t, root, map[string]string{"more.go": text.String() + " more"})
	feed.set([]string{filepath.Join(root, "more.go")}, false)
	if _, ok := candidates(t, s, root, tree, "alpha"); !ok {
		t.Fatal("no index after one change")
	}
	grown := s.Used()
	if grown <= before {
		t.Errorf("Used() = %d after adding a file, want more than %d", grown, before)
	}
	st := s.Stats()
	if len(st) != 1 || st[0].Bytes != grown {
		t.Errorf("Used() = %d, stats %+v: want them equal", grown, st)
	}
}
