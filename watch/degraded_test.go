package watch

import (
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestDegraded hits an injected watch limit: the root and a/ are watched, b/ and c/ are not. Watching goes
// on for a/, polled files in b/ and c/ are reported by polling, and one warning is logged.
func TestDegraded(t *testing.T) {
	dir := tempDir(t)
	writeTree(t, dir, "-- a/x.txt --\nx\n-- b/y.txt --\ny\n-- c/z.txt --\nz\n")
	logs := &warnCounter{}
	w := newWatcher(t, Options{
		Logger:       slog.New(logs),
		PollInterval: 10 * time.Millisecond,
		MaxWatches:   2,
	}, dir)
	st := w.Status()
	if st.Watches != 2 || !st.Degraded || !strings.Contains(st.Reason, "limit") {
		t.Errorf("Status = %+v, want 2 watches, degraded by the limit", st)
	}
	w.SetPolled([]string{filepath.Join(dir, "b/y.txt"), filepath.Join(dir, "c/z.txt"), filepath.Join(dir, "c/new.txt")})

	appendFile(t, dir, "a/x.txt")                                        // watched
	appendFile(t, dir, "c/z.txt")                                        // polled
	must(t, os.Remove(filepath.Join(dir, "b/y.txt")))                    // polled
	must(t, os.WriteFile(filepath.Join(dir, "c/new.txt"), nil, 0o644))   // polled, appears
	must(t, os.WriteFile(filepath.Join(dir, "c/other.txt"), nil, 0o644)) // neither
	must(t, os.Mkdir(filepath.Join(dir, "d"), 0o755))                    // new directory: over the limit too

	want := got{
		Changed: []string{"a/x.txt", "b/y.txt", "c/new.txt", "c/z.txt", "d"},
		Created: []string{"c/new.txt", "d"},
		Removed: []string{"b/y.txt"},
	}
	g := collect(t, w, dir, func(g *got) bool { return len(g.Changed) >= len(want.Changed) })
	if diff := cmp.Diff(want, g); diff != "" {
		t.Errorf("degraded batches (-want +got):\n%s", diff)
	}
	if n := logs.count(); n != 1 {
		t.Errorf("logged %d warnings, want 1: %q", n, logs.warns)
	}
	if st := w.Status(); st.Watches != 2 || !st.Degraded {
		t.Errorf("Status after new directory = %+v, want 2 watches, degraded", st)
	}
}

// TestPolledIgnored checks that a subscribed file in an ignored (so unwatched) directory is polled, and
// one in a watched directory is reported although ignored.
func TestPolledIgnored(t *testing.T) {
	dir := tempDir(t)
	writeTree(t, dir, "-- build/out.o --\no\n-- debug.log --\n")
	w := newWatcher(t, Options{Ignore: ignoreBuild, PollInterval: 10 * time.Millisecond}, dir)
	w.SetPolled([]string{filepath.Join(dir, "build/out.o"), filepath.Join(dir, "debug.log")})
	appendFile(t, dir, "build/out.o")
	appendFile(t, dir, "debug.log")
	g := collect(t, w, dir, func(g *got) bool { return len(g.Changed) == 2 })
	want := got{Changed: []string{"build/out.o", "debug.log"}}
	if diff := cmp.Diff(want, g); diff != "" {
		t.Errorf("polled ignored files (-want +got):\n%s", diff)
	}
	if st := w.Status(); st.Degraded {
		t.Errorf("Status = %+v, want not degraded", st)
	}
}

// TestDegradedRecovers removes a root while degraded: the freed watches go to the directories that hit the
// limit, and the Watcher is no longer degraded.
func TestDegradedRecovers(t *testing.T) {
	base := tempDir(t)
	writeTree(t, base, "-- x/a/f.txt --\n-- y/g.txt --\n")
	x, y := filepath.Join(base, "x"), filepath.Join(base, "y")
	w, err := New(Options{MaxWatches: 2})
	must(t, err)
	defer w.Close()
	must(t, w.SetRoots([]string{x}))
	must(t, w.SetRoots([]string{x, y}))
	if st := w.Status(); st.Watches != 2 || !st.Degraded {
		t.Fatalf("Status with roots x, y = %+v, want 2 watches, degraded", st)
	}
	must(t, w.SetRoots([]string{y}))
	if st := w.Status(); st.Watches != 1 || st.Degraded {
		t.Errorf("Status with root y = %+v, want 1 watch, not degraded", st)
	}
	appendFile(t, base, "y/g.txt")
	want := got{Changed: []string{"y/g.txt"}}
	if diff := cmp.Diff(want, untilSentinel(t, w, base, y)); diff != "" {
		t.Errorf("after recovery (-want +got):\n%s", diff)
	}
}
