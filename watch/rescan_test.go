package watch

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/fsnotify/fsnotify"
	"github.com/google/go-cmp/cmp"
)

// TestRescan drops a watch behind the Watcher's back, as lost events would leave it, and checks that a
// rescan (what drain does on fsnotify.ErrEventOverflow) sends Rescan and watches the directory again.
func TestRescan(t *testing.T) {
	dir := tempDir(t)
	writeTree(t, dir, tree)
	w := newWatcher(t, Options{}, dir)
	before := w.Status().Watches
	sub := filepath.Join(dir, "dir/sub")
	w.mu.Lock()
	w.dropOne(sub)
	w.mu.Unlock()
	appendFile(t, dir, "dir/sub/g.txt")
	if diff := cmp.Diff(got{}, untilSentinel(t, w, dir, dir)); diff != "" {
		t.Errorf("dropped watch still reports (-want +got):\n%s", diff)
	}

	w.inbox.fail(fsnotify.ErrEventOverflow) // as drain does
	w.poke()
	g := collect(t, w, dir, func(g *got) bool { return g.Rescan })
	if g.Changed != nil || g.Created != nil || g.Removed != nil {
		t.Errorf("rescan batch = %+v, want only Rescan", g)
	}
	if got := w.Status().Watches; got != before {
		t.Errorf("Watches after rescan = %d, want %d", got, before)
	}
	appendFile(t, dir, "dir/sub/g.txt")
	want := got{Changed: []string{"dir/sub/g.txt"}}
	if diff := cmp.Diff(want, untilSentinel(t, w, dir, dir)); diff != "" {
		t.Errorf("after rescan (-want +got):\n%s", diff)
	}
}

// TestRescanAfterIgnoreChange unignores a directory, as editing .gitignore would: Rescan starts watching it.
func TestRescanAfterIgnoreChange(t *testing.T) {
	dir := tempDir(t)
	writeTree(t, dir, tree)
	var ignoring atomic.Bool
	ignoring.Store(true)
	ignore := func(abs string, isDir bool) bool { return ignoring.Load() && ignoreBuild(abs, isDir) }
	w := newWatcher(t, Options{Ignore: ignore}, dir)
	appendFile(t, dir, "build/out.o")
	if diff := cmp.Diff(got{}, untilSentinel(t, w, dir, dir)); diff != "" {
		t.Errorf("ignored build/ (-want +got):\n%s", diff)
	}
	ignoring.Store(false)
	w.Rescan()
	collect(t, w, dir, func(g *got) bool { return g.Rescan })
	appendFile(t, dir, "build/out.o")
	want := got{Changed: []string{"build/out.o"}}
	if diff := cmp.Diff(want, untilSentinel(t, w, dir, dir)); diff != "" {
		t.Errorf("after unignoring build/ (-want +got):\n%s", diff)
	}
}

func TestInboxFull(t *testing.T) {
	var in inbox
	for range maxInbox + 2 {
		in.add(fsnotify.Event{Name: "x", Op: fsnotify.Write})
	}
	events, errs, rescan := in.take()
	if len(events) != maxInbox || !rescan || len(errs) != 1 || !errors.Is(errs[0], errInboxFull) {
		t.Errorf("full inbox: %d events, rescan %v, errs %v; want %d, true, [errInboxFull]", len(events), rescan, errs, maxInbox)
	}
}

// TestBurst writes 10,000 times across 1,000 files in 10 directories: every file must be reported.
func TestBurst(t *testing.T) {
	if testing.Short() {
		t.Skip("burst of 10,000 writes")
	}
	dir := tempDir(t)
	var files []string
	var ar strings.Builder
	for i := range 1000 {
		name := fmt.Sprintf("d%d/f%03d.txt", i%10, i)
		files = append(files, name)
		fmt.Fprintf(&ar, "-- %s --\n", name)
	}
	writeTree(t, dir, ar.String())
	w := newWatcher(t, Options{}, dir)
	for range 10 {
		for _, f := range files {
			appendFile(t, dir, f)
		}
	}
	g := collect(t, w, dir, func(g *got) bool { return len(g.Changed) >= len(files) || g.Rescan })
	slices.Sort(files)
	if diff := cmp.Diff(got{Changed: files}, g); diff != "" {
		t.Errorf("burst (-want +got):\n%s", diff)
	}
}
