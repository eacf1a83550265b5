package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/grove-mcp/grove/roots"
)

// quietGap ends a burst window: no notification for this long after the
// last write. Far above the 300 ms cap a busy batch may wait.
const quietGap = 2 * time.Second

type burstResult struct {
	files, writes   int
	writeTime       time.Duration // the writes themselves
	notified        int           // files with ≥ 1 updated after their last write
	updates         int           // updated notifications in the window
	settle          time.Duration // last write → last notification
	listChangedOnW  int           // list_changed during the write burst (no file was created)
	created         int
	listChangedOnC  int // list_changed after creating `created` files in one burst
	createTime      time.Duration
	createSettle    time.Duration
	subscribeTime   time.Duration
	missingExamples []string
}

// measureBurst subscribes to `files` files, writes them `writes` times in
// round-robin as fast as it can, then checks that every file's last write was
// notified; then it creates `created` new files in one burst and counts
// list_changed notifications.
func measureBurst(ctx context.Context, bin, base, era string, files, writes, created int) (burstResult, error) {
	r := burstResult{files: files, writes: writes, created: created}
	dir := filepath.Join(base, "burst-"+era)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return r, err
	}
	paths := make([]string, files)
	uris := make([]string, files)
	for i := range files {
		paths[i] = filepath.Join(dir, fmt.Sprintf("b%04d.txt", i))
		uris[i] = roots.URI(paths[i])
		if err := os.WriteFile(paths[i], []byte("start\n"), 0o644); err != nil {
			return r, err
		}
	}
	n := newNotes()
	p, err := start(ctx, bin, dir, era, n)
	if err != nil {
		return r, err
	}
	defer p.Close()
	t0 := time.Now()
	if err := subscribe(ctx, p, n, uris); err != nil {
		return r, err
	}
	r.subscribeTime = time.Since(t0)
	n.quiet(time.Now(), quietGap, 10*time.Second) // nothing should arrive; let any start-up noise pass

	lastWrite := make([]time.Time, files)
	burstStart := time.Now()
	for i := range writes {
		f := i % files
		if err := os.WriteFile(paths[f], fmt.Appendf(nil, "write %d\n", i), 0o644); err != nil {
			return r, err
		}
		lastWrite[f] = time.Now()
	}
	end := time.Now()
	r.writeTime = end.Sub(burstStart)
	n.quiet(end, quietGap, 60*time.Second)
	r.tally(n, uris, paths, lastWrite, burstStart, end)
	return r, createBurst(n, dir, &r)
}

// tally counts, per file, the updated notifications after the burst began
// and whether one came after the file's last write.
func (r *burstResult) tally(n *notes, uris, paths []string, lastWrite []time.Time, burstStart, end time.Time) {
	var lastNote time.Time
	for i, u := range uris {
		after := 0
		for _, t := range n.updatesOf(u) {
			if t.After(burstStart) {
				r.updates++
			}
			if t.After(lastWrite[i]) {
				after++
			}
			if t.After(lastNote) {
				lastNote = t
			}
		}
		if after > 0 {
			r.notified++
		} else if len(r.missingExamples) < 3 {
			r.missingExamples = append(r.missingExamples, filepath.Base(paths[i]))
		}
	}
	if lastNote.After(end) {
		r.settle = lastNote.Sub(end)
	}
	r.listChangedOnW = n.listChangedSince(burstStart)
}

// createBurst creates r.created new files at once and counts list_changed.
func createBurst(n *notes, dir string, r *burstResult) error {
	t0 := time.Now()
	for i := range r.created {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("new%05d.txt", i)), []byte("new\n"), 0o644); err != nil {
			return err
		}
	}
	end := time.Now()
	r.createTime = end.Sub(t0)
	n.quiet(end, quietGap, 30*time.Second)
	r.listChangedOnC = n.listChangedSince(t0)
	n.mu.Lock()
	if k := len(n.listChanged); k > 0 && n.listChanged[k-1].After(end) {
		r.createSettle = n.listChanged[k-1].Sub(end)
	}
	n.mu.Unlock()
	return nil
}
