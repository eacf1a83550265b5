package watch

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestPolledNeverThroughLinkOut polls a file whose directory (past the watch limit) is swapped for a symlink
// out of the root: the file is reported gone, and what happens to the file outside is never reported.
func TestPolledNeverThroughLinkOut(t *testing.T) {
	base := tempDir(t)
	writeTree(t, base, "-- root/a/x.txt --\n-- root/d/f.txt --\nin\n-- root/e/s.txt --\n-- outside/f.txt --\nout\n")
	root := filepath.Join(base, "root")
	w := newWatcher(t, Options{PollInterval: 10 * time.Millisecond, MaxWatches: 2}, root) // root and a/
	w.SetPolled([]string{filepath.Join(root, "d/f.txt"), filepath.Join(root, "e/s.txt")})
	must(t, os.Rename(filepath.Join(root, "d"), filepath.Join(root, "d-old")))
	must(t, os.Symlink(filepath.Join(base, "outside"), filepath.Join(root, "d")))
	collect(t, w, base, func(g *got) bool { return slices.Contains(g.Removed, "root/d/f.txt") })
	must(t, os.WriteFile(filepath.Join(base, "outside/f.txt"), []byte("changed outside"), 0o644))
	must(t, os.WriteFile(filepath.Join(root, "e/s.txt"), []byte("polled after it"), 0o644))
	g := collect(t, w, base, func(g *got) bool { return len(g.Changed) > 0 })
	g.drop("root/d") // the symlink's own creation, in the watched root
	g.drop("root/d-old")
	if diff := cmp.Diff(got{Changed: []string{"root/e/s.txt"}}, g); diff != "" {
		t.Errorf("after the outside change (-want +got):\n%s", diff)
	}
}

// TestIgnorePanics has the Ignore callback panic on one directory: the Watcher logs it, reports itself
// degraded, and goes on delivering changes.
func TestIgnorePanics(t *testing.T) {
	dir := tempDir(t)
	writeTree(t, dir, "-- a.txt --\n")
	logs := messages(make(chan string, 100))
	w := newWatcher(t, Options{Logger: slog.New(logs), Ignore: func(abs string, _ bool) bool {
		if filepath.Base(abs) == "boom" {
			panic("crafted ignore rules")
		}
		return false
	}}, dir)
	must(t, os.Mkdir(filepath.Join(dir, "boom"), 0o755))
	var seen []string
	for !slices.Contains(seen, "file watching degraded") {
		select {
		case m := <-logs:
			seen = append(seen, m)
		case <-time.After(timeout):
			t.Fatalf("logged %q, want a panic and the degradation", seen)
		}
	}
	if !slices.Contains(seen, "goroutine panicked") {
		t.Errorf("logged %q, want the panic", seen)
	}
	if st := w.Status(); !st.Degraded || !strings.Contains(st.Reason, "internal error") {
		t.Errorf("Status = %+v, want degraded by an internal error", st)
	}
	appendFile(t, dir, "a.txt")
	if diff := cmp.Diff(got{Changed: []string{"a.txt"}}, untilSentinel(t, w, dir, dir)); diff != "" {
		t.Errorf("after the panic (-want +got):\n%s", diff)
	}
}

// messages is a slog.Handler that sends each record's message on the channel.
type messages chan string

func (h messages) Enabled(context.Context, slog.Level) bool { return true }
func (h messages) WithAttrs([]slog.Attr) slog.Handler       { return h }
func (h messages) WithGroup(string) slog.Handler            { return h }
func (h messages) Handle(_ context.Context, r slog.Record) error {
	select {
	case h <- r.Message:
	default:
	}
	return nil
}
