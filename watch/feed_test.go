package watch

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/fsnotify/fsnotify"
	"github.com/google/go-cmp/cmp"
)

func syncFeed(t *testing.T, f *Feed, dir string) (paths []string, lost bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	ch, err := f.Sync(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return rel(dir, ch.Paths), ch.Lost
}

// TestFeed checks that a Sync right after a change reports it, with no wait in between (the barrier),
// chmod and ignored paths included, and that each change is reported once.
func TestFeed(t *testing.T) {
	dir := tempDir(t)
	writeTree(t, dir, tree)
	w := newWatcher(t, Options{Ignore: ignoreBuild}, dir)
	f := w.Subscribe(dir)
	defer f.Close()
	if _, lost := syncFeed(t, f, dir); !lost {
		t.Error("first Sync: Lost = false, want true")
	}
	for _, tt := range []struct {
		name   string
		change func(t *testing.T)
		want   []string
	}{
		{"nothing", func(t *testing.T) {}, nil},
		{"write", func(t *testing.T) { appendFile(t, dir, "dir/f.txt") }, []string{"dir/f.txt"}},
		{"chmod", func(t *testing.T) { must(t, os.Chmod(filepath.Join(dir, "a.txt"), 0o755)) }, []string{"a.txt"}},
		{"ignored file in a watched directory", func(t *testing.T) { appendFile(t, dir, "x.log") }, []string{"x.log"}},
		{"new directory", func(t *testing.T) {
			must(t, os.Mkdir(filepath.Join(dir, "new"), 0o755))
		}, []string{"new"}},
		{"file in the new directory", func(t *testing.T) { appendFile(t, dir, "new/n.txt") }, []string{"new/n.txt"}},
		{"rename", func(t *testing.T) {
			must(t, os.Rename(filepath.Join(dir, "new/n.txt"), filepath.Join(dir, "dir/sub/n.txt")))
		}, []string{"dir/sub/n.txt", "new/n.txt"}},
		{"index", func(t *testing.T) { lockAndRename(t, dir, ".git/index") }, []string{".git/index", ".git/index.lock"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tt.change(t)
			paths, lost := syncFeed(t, f, dir)
			if lost {
				t.Error("Lost = true, want false")
			}
			if diff := cmp.Diff(tt.want, paths); diff != "" {
				t.Errorf("paths (-want +got):\n%s", diff)
			}
		})
	}
}

// TestFeedLostOnOverflow simulates the kernel queue overflowing, as drain reports it: the next Sync says
// Lost, and the one after is back to normal.
func TestFeedLostOnOverflow(t *testing.T) {
	dir := tempDir(t)
	writeTree(t, dir, tree)
	w := newWatcher(t, Options{}, dir)
	f := w.Subscribe(dir)
	defer f.Close()
	syncFeed(t, f, dir)
	appendFile(t, dir, "a.txt")
	w.inbox.fail(fsnotify.ErrEventOverflow)
	w.poke()
	if _, lost := syncFeed(t, f, dir); !lost {
		t.Error("Sync after an overflow: Lost = false, want true")
	}
	appendFile(t, dir, "a.txt")
	paths, lost := syncFeed(t, f, dir)
	if lost || !cmp.Equal(paths, []string{"a.txt"}) {
		t.Errorf("Sync after recovery = %v, lost %v; want [a.txt], not lost", paths, lost)
	}
}

// TestFeedLost lists the other ways a feed loses track: degraded watching, a Watcher closed.
func TestFeedLost(t *testing.T) {
	dir := tempDir(t)
	writeTree(t, dir, tree)
	t.Run("degraded", func(t *testing.T) {
		w := newWatcher(t, Options{MaxWatches: 2}, dir)
		f := w.Subscribe(dir)
		syncFeed(t, f, dir)
		if _, lost := syncFeed(t, f, dir); !lost {
			t.Error("Lost = false while degraded")
		}
	})
	t.Run("closed", func(t *testing.T) {
		w := newWatcher(t, Options{}, dir)
		f := w.Subscribe(dir)
		syncFeed(t, f, dir)
		w.Close()
		if _, lost := syncFeed(t, f, dir); !lost {
			t.Error("Lost = false after Close")
		}
	})
}

// TestFeedCover checks that Cover adds the watch an Ignore callback kept out and says so, and that
// changes there are reported afterwards.
func TestFeedCover(t *testing.T) {
	dir := tempDir(t)
	writeTree(t, dir, tree)
	w := newWatcher(t, Options{Ignore: ignoreBuild}, dir)
	f := w.Subscribe(dir)
	defer f.Close()
	syncFeed(t, f, dir)
	if !f.Cover([]string{dir, filepath.Join(dir, "dir")}) {
		t.Error("Cover of watched directories = false")
	}
	build := filepath.Join(dir, "build")
	if f.Cover([]string{build}) {
		t.Error("Cover of an ignored directory = true the first time")
	}
	if !f.Cover([]string{build}) {
		t.Error("Cover of build = false once added")
	}
	if f.Cover([]string{filepath.Dir(dir)}) {
		t.Error("Cover outside the feed's directory = true")
	}
	appendFile(t, dir, "build/out.o")
	if paths, lost := syncFeed(t, f, dir); lost || !cmp.Equal(paths, []string{"build/out.o"}) {
		t.Errorf("Sync = %v, lost %v; want [build/out.o]", paths, lost)
	}
}

// TestFeedDuringWalk: while the Watcher walks a tree (holding its lock, handling no event), Sync reports
// Lost at once rather than waiting for the walk, and Cover reports false.
func TestFeedDuringWalk(t *testing.T) {
	dir := tempDir(t)
	writeTree(t, dir, tree)
	w := newWatcher(t, Options{}, dir)
	f := w.Subscribe(dir)
	defer f.Close()
	syncFeed(t, f, dir)
	w.mu.Lock() // as a walk holds it
	w.walking.Store(true)
	_, lost := syncFeed(t, f, dir)
	covered := f.Cover([]string{dir})
	w.walking.Store(false)
	w.mu.Unlock()
	if !lost || covered {
		t.Errorf("during a walk: Lost = %v, Cover = %v; want true, false", lost, covered)
	}
	if _, lost := syncFeed(t, f, dir); lost {
		t.Error("after the walk: Lost = true")
	}
}
