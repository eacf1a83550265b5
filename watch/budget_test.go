package watch

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// budgetTree writes 5,000 files: 10 top directories of 10 subdirectories of 50 files each.
func budgetTree(t *testing.T) string {
	t.Helper()
	dir := tempDir(t)
	for i := range 10 {
		for j := range 10 {
			sub := filepath.Join(dir, fmt.Sprintf("d%d", i), fmt.Sprintf("s%d", j))
			must(t, os.MkdirAll(sub, 0o755))
			for k := range 50 {
				must(t, os.WriteFile(filepath.Join(sub, fmt.Sprintf("f%02d.txt", k)), []byte("x\n"), 0o644))
			}
		}
	}
	return dir
}

var subscribed = []string{"d3/s4/f10.txt", "d7/s1/f20.txt", "d9/s9/f49.txt", "d0/s0/f00.txt", "d5/s5/f33.txt"}

func abs(dir string, rels ...string) []string {
	var out []string
	for _, r := range rels {
		out = append(out, filepath.Join(dir, filepath.FromSlash(r)))
	}
	return out
}

// readers open and read files of dir through table, each holding up to hold descriptors at once, until
// stop is closed; every open that the table refuses is a read that would have failed with EMFILE.
func readers(t *testing.T, table *fdTable, dir string, n, hold int, stop chan struct{}) *sync.WaitGroup {
	var wg sync.WaitGroup
	for r := range n {
		wg.Go(func() {
			var open []*os.File
			defer func() {
				for _, f := range open {
					f.Close()
					table.give(1)
				}
			}()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				if len(open) == hold {
					open[0].Close()
					table.give(1)
					open = open[1:]
				}
				if !table.take(1) {
					t.Errorf("reader %d: a read failed for lack of descriptors", r)
					return
				}
				f, err := os.Open(filepath.Join(dir, fmt.Sprintf("d%d/s%d/f%02d.txt", i%10, (i/10)%10, (i/100)%50)))
				if errors.Is(err, fs.ErrNotExist) {
					table.give(1) // removed by the test
					continue
				}
				if err != nil {
					table.give(1)
					t.Errorf("reader %d: %v", r, err)
					return
				}
				if _, err := f.Read(make([]byte, 8)); err != nil {
					t.Errorf("reader %d: %v", r, err)
				}
				open = append(open, f)
			}
		})
	}
	return &wg
}

// TestDescriptorBudget runs the kqueue cost model on Linux: a fake limit of 256 descriptors (budget 128)
// and a 5,000-file tree, while readers hold up to 100 descriptors. No read fails, the watches never hold
// more than the budget, the directories nearest the root are watched and the rest polled, subscribed files
// notify through watches of their own, and changes in polled directories are noticed.
func TestDescriptorBudget(t *testing.T) {
	dir := budgetTree(t)
	table := &fdTable{limit: 256}
	spec, fk := fakeKqueueSpec(table)
	stop := make(chan struct{})
	wg := readers(t, table, dir, 4, 25, stop)
	defer wg.Wait()
	defer close(stop)

	// Polling every hour: whatever is reported before, came from a watch.
	w := newWatcher(t, Options{kernel: spec, PollInterval: time.Hour}, dir)
	w.SetPolled(abs(dir, subscribed...))
	st := w.Status()
	if st.Budget != 128 || st.Descriptors > st.Budget || st.Polled == 0 || st.FileWatches != len(subscribed) {
		t.Fatalf("Status = %+v, want budget 128 held, directories polled, %d files watched", st, len(subscribed))
	}
	checkNearestWatched(t, w, dir)

	for _, f := range subscribed {
		appendFile(t, dir, f)
	}
	g := collect(t, w, dir, func(g *got) bool { return len(g.Changed) >= len(subscribed) })
	if want := slices.Sorted(slices.Values(subscribed)); !slices.Equal(g.Changed, want) {
		t.Errorf("changed = %q, want the subscribed files %q", g.Changed, want)
	}
	held, peak, refused := fk.counts()
	if peak > st.Budget || refused != 0 || held > w.Status().Descriptors {
		t.Errorf("kqueue held %d descriptors (peak %d, %d refused); the Watcher counted %d, budget %d",
			held, peak, refused, w.Status().Descriptors, st.Budget)
	}
}

// checkNearestWatched checks that the walk went breadth first: no watched directory lies deeper than a
// polled one, and the root and d0 are watched.
func checkNearestWatched(t *testing.T, w *Watcher, dir string) {
	t.Helper()
	w.mu.Lock()
	defer w.mu.Unlock()
	depth := func(d string) int { return strings.Count(d, string(filepath.Separator)) }
	deepestWatched, shallowestPolled := 0, 1<<30
	for d := range w.dirs {
		deepestWatched = max(deepestWatched, depth(d))
	}
	for d := range w.fds.dirs {
		shallowestPolled = min(shallowestPolled, depth(d))
	}
	if deepestWatched > shallowestPolled {
		t.Errorf("watched directories go %d levels deep, polled ones start at %d", deepestWatched, shallowestPolled)
	}
	if w.dirs[dir] == nil || w.dirs[filepath.Join(dir, "d0")] == nil {
		t.Errorf("the root or d0 is not watched")
	}
}

// TestDescriptorBudgetPolling checks that changes in polled directories are noticed: a file edited, one
// created, one removed, a directory made with a file in it; subscribed files still notify.
func TestDescriptorBudgetPolling(t *testing.T) {
	dir := budgetTree(t)
	table := &fdTable{limit: 256}
	spec, fk := fakeKqueueSpec(table)
	stop := make(chan struct{})
	wg := readers(t, table, dir, 4, 25, stop)
	defer wg.Wait()
	defer close(stop)

	w := newWatcher(t, Options{kernel: spec, PollInterval: 20 * time.Millisecond}, dir)
	w.SetPolled(abs(dir, subscribed...))
	appendFile(t, dir, "d8/s2/f05.txt")
	must(t, os.WriteFile(filepath.Join(dir, "d8/s2/new.txt"), nil, 0o644))
	must(t, os.Remove(filepath.Join(dir, "d6/s6/f06.txt")))
	must(t, os.MkdirAll(filepath.Join(dir, "d4/s3/sub"), 0o755))
	must(t, os.WriteFile(filepath.Join(dir, "d4/s3/sub/deep.txt"), nil, 0o644))
	appendFile(t, dir, subscribed[0])
	want := []string{"d4/s3/sub", "d4/s3/sub/deep.txt", "d6/s6/f06.txt", "d8/s2/f05.txt", "d8/s2/new.txt"}
	want = append(want, subscribed[0])
	slices.Sort(want)
	want = slices.Compact(want)
	g := collect(t, w, dir, func(g *got) bool {
		return !slices.ContainsFunc(want, func(p string) bool { return !slices.Contains(g.Changed, p) })
	})
	if !slices.Contains(g.Removed, "d6/s6/f06.txt") || !slices.Contains(g.Created, "d4/s3/sub/deep.txt") {
		t.Errorf("batches = %+v, want d6/s6/f06.txt removed and d4/s3/sub/deep.txt created", g)
	}
	if _, peak, refused := fk.counts(); peak > w.Status().Budget || refused != 0 {
		t.Errorf("kqueue peaked at %d descriptors (%d refused), budget %d", peak, refused, w.Status().Budget)
	}

	// An atomic save of a subscribed file (its watch goes with the old file) is a change, and the new
	// file is watched in turn.
	f := filepath.Join(dir, subscribed[1])
	must(t, os.WriteFile(f+".tmp", []byte("new\n"), 0o644))
	must(t, os.Rename(f+".tmp", f))
	collect(t, w, dir, func(g *got) bool { return slices.Contains(g.Created, subscribed[1]) })
	waitFor(t, func() bool { return w.Status().FileWatches == len(subscribed) })
	appendFile(t, dir, subscribed[1])
	collect(t, w, dir, func(g *got) bool { return slices.Contains(g.Changed, subscribed[1]) })
}

// TestDescriptorBudgetShed creates entries in a watched directory, for which kqueue opens descriptors by
// itself: the Watcher turns the deepest watches into polled directories until the budget holds again.
func TestDescriptorBudgetShed(t *testing.T) {
	dir := budgetTree(t)
	table := &fdTable{limit: 256}
	spec, fk := fakeKqueueSpec(table)
	w := newWatcher(t, Options{kernel: spec, PollInterval: 20 * time.Millisecond}, dir)
	before := w.Status()
	for i := range 100 {
		must(t, os.WriteFile(filepath.Join(dir, "d1", fmt.Sprintf("burst%03d", i)), nil, 0o644))
	}
	collect(t, w, dir, func(g *got) bool { return slices.Contains(g.Created, "d1/burst099") })
	waitFor(t, func() bool {
		held, _, _ := fk.counts()
		st := w.Status()
		return st.Descriptors <= st.Budget && held <= st.Budget && st.Polled > before.Polled
	})
	if _, peak, refused := fk.counts(); peak > table.limit || refused != 0 {
		t.Errorf("kqueue peaked at %d descriptors (%d refused), limit %d", peak, refused, table.limit)
	}
	// The shed directory is polled now: changes in it are still noticed.
	must(t, os.WriteFile(filepath.Join(dir, "d1", "after"), nil, 0o644))
	collect(t, w, dir, func(g *got) bool { return slices.Contains(g.Created, "d1/after") })
}

// waitFor polls cond until it holds, failing after timeout.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	for !cond() {
		select {
		case <-ctx.Done():
			t.Fatal("timed out waiting for a condition")
		case <-time.After(5 * time.Millisecond):
		}
	}
}
