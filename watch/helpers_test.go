package watch

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/tools/txtar"
)

// timeout bounds every wait for a batch (as in gopls's filewatcher tests).
const timeout = 30 * time.Second

// sentinel is written after a change: once its batch arrives, every earlier event has been delivered too
// (inotify keeps the order of one instance's events), so "nothing else happened" can be asserted exactly.
const sentinel = "zz-sentinel"

// tempDir is t.TempDir with symlinks resolved, as roots are real paths.
func tempDir(t testing.TB) string {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func writeTree(t testing.TB, dir, archive string) {
	t.Helper()
	for _, f := range txtar.Parse([]byte(archive)).Files {
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func newWatcher(t testing.TB, opts Options, roots ...string) *Watcher {
	t.Helper()
	w, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	if err := w.SetRoots(roots); err != nil {
		t.Fatal(err)
	}
	return w
}

// got is the union of batches, with paths relative to a directory and slash-separated.
type got struct {
	Changed, Created, Removed, Git []string
	Rescan                         bool
}

func (g *got) add(dir string, b Batch) {
	g.Changed = union(g.Changed, rel(dir, b.Changed))
	g.Created = union(g.Created, rel(dir, b.Created))
	g.Removed = union(g.Removed, rel(dir, b.Removed))
	g.Git = union(g.Git, rel(dir, b.Git))
	g.Rescan = g.Rescan || b.Rescan
}

func (g *got) drop(name string) {
	for _, l := range []*[]string{&g.Changed, &g.Created, &g.Removed, &g.Git} {
		*l = slices.DeleteFunc(*l, func(s string) bool { return s == name })
		if len(*l) == 0 {
			*l = nil
		}
	}
}

func rel(dir string, paths []string) []string {
	var out []string
	for _, p := range paths {
		r, err := filepath.Rel(dir, p)
		if err != nil || strings.HasPrefix(r, "..") {
			r = "OUTSIDE:" + p
		}
		out = append(out, filepath.ToSlash(r))
	}
	return out
}

func union(a, b []string) []string {
	for _, s := range b {
		if !slices.Contains(a, s) {
			a = append(a, s)
		}
	}
	slices.Sort(a)
	return a
}

// collect reads batches until done(union so far) holds, failing after timeout.
func collect(t testing.TB, w *Watcher, dir string, done func(*got) bool) got {
	t.Helper()
	var g got
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	for !done(&g) {
		select {
		case b, ok := <-w.Batches():
			if !ok {
				t.Fatalf("Batches closed; so far %+v", g)
			}
			g.add(dir, b)
		case <-ctx.Done():
			t.Fatalf("timed out waiting for batches; so far %+v", g)
		}
	}
	return g
}

// untilSentinel writes the sentinel file into sentinelDir and collects until it is reported, then leaves it
// out of the result.
func untilSentinel(t testing.TB, w *Watcher, dir, sentinelDir string) got {
	t.Helper()
	p := filepath.Join(sentinelDir, sentinel)
	if err := os.WriteFile(p, []byte(time.Now().String()), 0o644); err != nil {
		t.Fatal(err)
	}
	name := rel(dir, []string{p})[0]
	g := collect(t, w, dir, func(g *got) bool { return slices.Contains(g.Changed, name) })
	g.drop(name)
	return g
}

// warnCounter is a slog.Handler counting warnings.
type warnCounter struct {
	mu    sync.Mutex
	warns []string
}

func (h *warnCounter) Enabled(context.Context, slog.Level) bool { return true }
func (h *warnCounter) WithAttrs([]slog.Attr) slog.Handler       { return h }
func (h *warnCounter) WithGroup(string) slog.Handler            { return h }
func (h *warnCounter) Handle(_ context.Context, r slog.Record) error {
	if r.Level >= slog.LevelWarn {
		h.mu.Lock()
		h.warns = append(h.warns, r.Message)
		h.mu.Unlock()
	}
	return nil
}

func (h *warnCounter) count() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.warns)
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
