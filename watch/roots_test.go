package watch

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestSetRoots(t *testing.T) {
	base := tempDir(t)
	writeTree(t, base, "-- a/x.txt --\n-- a/sub/y.txt --\n-- b/z.txt --\n")
	a, b, sub := filepath.Join(base, "a"), filepath.Join(base, "b"), filepath.Join(base, "a/sub")
	w := newWatcher(t, Options{}, a, b)
	if got := w.Status().Watches; got != 3 {
		t.Errorf("Watches with roots a, b = %d, want 3", got)
	}

	appendFile(t, base, "b/z.txt")
	want := got{Changed: []string{"b/z.txt"}}
	if diff := cmp.Diff(want, untilSentinel(t, w, base, a)); diff != "" {
		t.Errorf("with root b (-want +got):\n%s", diff)
	}

	must(t, w.SetRoots([]string{a}))
	if got := w.Status().Watches; got != 2 {
		t.Errorf("Watches after removing root b = %d, want 2", got)
	}
	appendFile(t, base, "b/z.txt")
	if diff := cmp.Diff(got{}, untilSentinel(t, w, base, a)); diff != "" {
		t.Errorf("events from removed root b (-want +got):\n%s", diff)
	}

	must(t, w.SetRoots([]string{sub, b}))
	appendFile(t, base, "a/x.txt")
	appendFile(t, base, "a/sub/y.txt")
	appendFile(t, base, "b/z.txt")
	want = got{Changed: []string{"a/sub/y.txt", "b/z.txt"}}
	if diff := cmp.Diff(want, untilSentinel(t, w, base, b)); diff != "" {
		t.Errorf("after narrowing a to a/sub (-want +got):\n%s", diff)
	}
	if got := w.Status().Watches; got != 2 {
		t.Errorf("Watches with roots a/sub, b = %d, want 2", got)
	}
}

func TestSetRootsErrors(t *testing.T) {
	dir := tempDir(t)
	w := newWatcher(t, Options{})
	err := w.SetRoots([]string{"relative", filepath.Join(dir, "missing"), dir})
	if err == nil {
		t.Fatal("SetRoots with a relative and a missing root succeeded")
	}
	if got := w.Status().Watches; got != 1 {
		t.Errorf("Watches = %d, want 1 (the valid root is still watched)", got)
	}
	must(t, w.Close())
	must(t, w.Close())
	if err := w.SetRoots([]string{dir}); !errors.Is(err, ErrClosed) {
		t.Errorf("SetRoots after Close = %v, want ErrClosed", err)
	}
	select {
	case _, ok := <-w.Batches():
		if ok {
			t.Error("Batches delivered a batch after Close")
		}
	case <-time.After(timeout):
		t.Error("Batches not closed by Close")
	}
}

func TestFileRoot(t *testing.T) {
	dir := tempDir(t)
	writeTree(t, dir, "-- a.txt --\n-- b.txt --\n")
	a := filepath.Join(dir, "a.txt")
	w := newWatcher(t, Options{}, a)
	appendFile(t, dir, "b.txt")
	must(t, os.WriteFile(filepath.Join(dir, "a.txt.tmp"), []byte("saved"), 0o644))
	must(t, os.Rename(filepath.Join(dir, "a.txt.tmp"), a))
	g := collect(t, w, dir, func(g *got) bool { return slices.Contains(g.Changed, "a.txt") })
	want := got{Changed: []string{"a.txt"}, Created: []string{"a.txt"}}
	if diff := cmp.Diff(want, g); diff != "" {
		t.Errorf("single-file root (-want +got):\n%s", diff)
	}
}

func TestCloseWithUnreadBatch(t *testing.T) {
	dir := tempDir(t)
	w := newWatcher(t, Options{Debounce: time.Millisecond}, dir)
	appendFile(t, dir, "a.txt")
	done := make(chan error)
	go func() { done <- w.Close() }()
	select {
	case err := <-done:
		must(t, err)
	case <-time.After(timeout):
		t.Fatal("Close blocked on an unread batch")
	}
}

// TestConcurrentUse changes roots, polled files and the tree at the same time, for the race detector.
func TestConcurrentUse(t *testing.T) {
	base := tempDir(t)
	writeTree(t, base, "-- a/x.txt --\n-- b/y.txt --\n-- b/sub/z.txt --\n")
	a, b := filepath.Join(base, "a"), filepath.Join(base, "b")
	w := newWatcher(t, Options{Debounce: time.Millisecond, PollInterval: time.Millisecond}, a)
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			case <-w.Batches():
			default:
				if err := os.WriteFile(filepath.Join(b, "sub", "z.txt"), []byte{byte(i)}, 0o644); err != nil {
					t.Error(err)
					return
				}
			}
		}
	}()
	for i := range 50 {
		roots := []string{a}
		if i%2 == 0 {
			roots = append(roots, b)
		}
		must(t, w.SetRoots(roots))
		w.SetPolled([]string{filepath.Join(b, "y.txt")})
		_ = w.Status()
	}
	close(stop)
	<-done
	must(t, w.SetRoots([]string{a, b}))
	if got := w.Status().Watches; got != 3 {
		t.Errorf("Watches = %d, want 3", got)
	}
}

// TestWiderRootThenRename widens a root (a/b/c, then a) and renames the directory in between: the watch of
// a/b/c, added before a/b existed in the set, must go with it, so no event names a stale path.
func TestWiderRootThenRename(t *testing.T) {
	base := tempDir(t)
	writeTree(t, base, "-- a/b/c/f.txt --\n")
	a := filepath.Join(base, "a")
	w := newWatcher(t, Options{}, filepath.Join(a, "b/c"))
	must(t, w.SetRoots([]string{a}))
	must(t, os.Rename(filepath.Join(a, "b"), filepath.Join(a, "m")))
	appendFile(t, a, "m/c/f.txt")
	want := got{
		Changed: []string{"b", "b/c", "m", "m/c", "m/c/f.txt"},
		Created: []string{"m", "m/c", "m/c/f.txt"},
		Removed: []string{"b", "b/c"},
	}
	if diff := cmp.Diff(want, untilSentinel(t, w, a, a)); diff != "" {
		t.Errorf("rename after widening (-want +got):\n%s", diff)
	}
}
