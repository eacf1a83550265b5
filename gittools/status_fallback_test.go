package gittools

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// fakeFeed is a feed under the test's control.
type fakeFeed struct {
	paths   []string
	lost    bool
	covered bool
}

func (f *fakeFeed) Watch(string) WorktreeChanges { return f }

func (f *fakeFeed) Sync(context.Context) ([]string, bool, error) {
	p, l := f.paths, f.lost
	f.paths, f.lost = nil, false
	return p, l, nil
}

func (f *fakeFeed) Cover([]string) bool { return f.covered }
func (f *fakeFeed) Close()              {}

// TestWarmStatusFallback checks when warm status trusts its state and when it scans again: a feed that
// reports nothing gets the old answer (the state is used), and lost events, a directory that was not
// watched or a changed info/exclude get a full scan with the right one.
func TestWarmStatusFallback(t *testing.T) {
	f := newFixture(t)
	f.write("a.txt", "a\n", "dir/b.txt", "b\n")
	f.commit("initial")
	r, sc := f.repos()
	feed := &fakeFeed{covered: true}
	r.SetChanges(feed)
	step := func(what string, wantFull bool, want []string) {
		t.Helper()
		got := warmLines(t, r, sc)
		if full := warmOf(t, r).Full(); full != wantFull {
			t.Errorf("%s: full scan = %v, want %v", what, full, wantFull)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: status (-want +got):\n%s", what, diff)
		}
	}
	step("first status", true, []string{})
	f.write("dir/b.txt", "changed\n")
	step("change the feed did not report", false, []string{})
	feed.paths = []string{filepath.Join(f.dir, "dir", "b.txt")}
	step("change reported", false, []string{" M dir/b.txt"})

	f.write("new.txt", "n\n")
	feed.lost = true
	step("events lost", true, []string{" M dir/b.txt", "?? new.txt"})

	f.write(".git/info/exclude", "new.txt\n")
	step("info/exclude changed", true, []string{" M dir/b.txt"})

	feed.lost, feed.covered = true, false
	step("lost again, directories not watched", true, []string{" M dir/b.txt"})
	step("still not watched", true, []string{" M dir/b.txt"})
	feed.covered = true
	step("watched again", true, []string{" M dir/b.txt"})
	step("warm again", false, []string{" M dir/b.txt"})

	feed.paths = []string{filepath.Join(f.dir, ".gitignore")}
	step("a .gitignore changed", true, []string{" M dir/b.txt"})
}

// TestStatusHashOfRecentFileNotRemembered: a file written twice with the same size within one tick of
// the file system's clock keeps its stat data, so a hash remembered by stat data after the first write
// would be taken for the second. Hashes of recently modified files are not remembered.
func TestStatusHashOfRecentFileNotRemembered(t *testing.T) {
	f := newFixture(t)
	f.write("a.txt", "aaaa\n")
	f.commit("initial")
	r, sc := f.repos()
	f.write("a.txt", "bbbb\n")
	if diff := cmp.Diff([]string{" M a.txt"}, warmLines(t, r, sc)); diff != "" {
		t.Fatalf("status (-want +got):\n%s", diff)
	}
	hashes := func() int {
		n := 0
		for _, rp := range r.repos.All() {
			n += len(rp.Hashes)
		}
		return n
	}
	if n := hashes(); n != 0 {
		t.Errorf("%d hashes remembered for a file modified just now", n)
	}
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(filepath.Join(f.dir, "a.txt"), old, old); err != nil {
		t.Fatal(err)
	}
	warmLines(t, r, sc)
	if n := hashes(); n != 1 {
		t.Errorf("%d hashes remembered for a file modified an hour ago, want 1", n)
	}
}
