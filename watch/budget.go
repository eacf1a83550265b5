package watch

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

const (
	// descriptorShare: where watches cost file descriptors (kqueue), they may hold 1/descriptorShare of the
	// process's limit. The other half is headroom for what must never fail with EMFILE: file reads,
	// repositories (go-git keeps pack files open), HTTP connections, and the descriptors kqueue opens by
	// itself for entries created in watched directories before the Watcher accounts for them.
	descriptorShare = 2
	// fileReserveShare: 1/fileReserveShare of the budget is kept for subscribed files whose directory is
	// polled, watched one by one (one descriptor each) so that they notify at once.
	fileReserveShare = 8
	// maxPollEntries bounds the entries of polled directories stat'ed per PollInterval (round robin over
	// the directories): a few milliseconds of work a second even when most of a large tree is polled.
	maxPollEntries = 20_000
)

// DescriptorBudget reports how many file descriptors watches may hold in this process, 0 where they cost
// none (inotify, Windows), and the process's descriptor limit (RLIMIT_NOFILE), 0 when unknown.
func DescriptorBudget() (budget, limit int) {
	b := newFDBudget(fsnotifyKernel)
	return b.budget, descriptorLimit()
}

// errBudget is what adding a watch fails with when it would hold more descriptors than the budget allows.
var errBudget = errors.New("the file descriptor budget for watches is spent")

// fdBudget accounts for the descriptors watches hold where they cost some. Guarded by Watcher.mu.
type fdBudget struct {
	budget int                 // descriptors the watches may hold; 0 when they cost none
	used   int                 // held by directory and file watches, an upper bound
	dirs   map[string]*dirPoll // tree directories polled instead of watched
	order  []string            // dirs in the order they are polled (may hold forgotten ones)
	next   int                 // index in order of the next directory to poll
	files  map[string]bool     // subscribed files watched one by one
	logged bool                // the switch to polling was logged (once per Watcher)
}

// dirPoll is what polling a directory compares: its entries, not ignored, by name.
type dirPoll struct{ entries map[string]fs.FileInfo }

func newFDBudget(spec kernelSpec) fdBudget {
	b := fdBudget{dirs: make(map[string]*dirPoll), files: make(map[string]bool)}
	if spec.perEntry && spec.fdLimit != nil {
		b.budget = spec.fdLimit() / descriptorShare
	}
	return b
}

// dirBudget is what directory watches may hold: the budget less the reserve for subscribed files.
func (b *fdBudget) dirBudget() int { return b.budget - b.budget/fileReserveShare }

// dirCost is what watching dir costs under kqueue: a descriptor for dir and one for each entry.
func dirCost(dir string) (int, error) {
	f, err := os.Open(dir)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	n := 1
	for {
		names, err := f.Readdirnames(1024)
		n += len(names)
		if err != nil {
			return n, nil // io.EOF, or a directory that vanished: adding the watch will say
		}
	}
}

// charge checks that a new watch of dir fits in the budget and returns its cost. w.mu must be held.
func (w *Watcher) charge(dir string) (int, error) {
	if w.fds.budget == 0 {
		return 0, nil
	}
	cost, err := dirCost(dir)
	if err != nil {
		return 0, err
	}
	if w.fds.used+cost > w.fds.dirBudget() {
		return 0, fmt.Errorf("adding watch %q: %w", dir, errBudget)
	}
	return cost, nil
}

// pollDir makes the tree directory dir polled, taking the baseline its changes are compared with.
func (w *Watcher) pollDir(dir string) {
	if _, ok := w.fds.dirs[dir]; ok {
		return
	}
	w.fds.dirs[dir] = &dirPoll{entries: w.listPolled(dir)}
	w.fds.order = append(w.fds.order, dir)
	if !w.fds.logged {
		w.fds.logged = true
		w.log.Info("file descriptor budget spent: the remaining directories are polled", "budget", w.fds.budget,
			"descriptors", w.fds.used, "watches", len(w.dirs), "poll_interval", w.opts.PollInterval)
	}
	w.publish()
}

// forgetPolled stops polling dir and the polled directories below it.
func (w *Watcher) forgetPolled(dir string) {
	for d := range w.fds.dirs {
		if within(d, dir) {
			delete(w.fds.dirs, d)
		}
	}
	w.publish()
}

// listPolled lists the entries of the polled directory dir, without following symlinks and without the
// ignored ones and .git; nil when dir is no longer a directory.
func (w *Watcher) listPolled(dir string) map[string]fs.FileInfo {
	if !isDir(dir) {
		return nil
	}
	es, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	out := make(map[string]fs.FileInfo, len(es))
	for _, e := range es {
		p := filepath.Join(dir, e.Name())
		if e.Name() == ".git" || w.ignored(p, e.IsDir()) {
			continue
		}
		if fi, err := e.Info(); err == nil {
			out[e.Name()] = fi
		}
	}
	// ReadDir followed dir if it was swapped for a symlink after the check: say nothing of what it listed.
	if !isDir(dir) {
		return nil
	}
	return out
}

// pollDirs compares polled directories with their last listing, maxPollEntries entries at most, and
// reports the differences in c. Called on the run goroutine with w.mu held.
func (w *Watcher) pollDirs(c *changes) {
	w.compactOrder()
	seen := 0
	for range len(w.fds.order) {
		if seen >= maxPollEntries || w.stopped() {
			return
		}
		dir := w.fds.order[w.fds.next%len(w.fds.order)]
		w.fds.next = (w.fds.next + 1) % len(w.fds.order)
		if dp := w.fds.dirs[dir]; dp != nil {
			seen += 1 + w.pollOne(dir, dp, c)
		}
	}
}

// compactOrder drops forgotten directories from the polling order once they are half of it.
func (w *Watcher) compactOrder() {
	if len(w.fds.order) <= 2*len(w.fds.dirs) {
		return
	}
	w.fds.order = slices.DeleteFunc(w.fds.order, func(d string) bool { return w.fds.dirs[d] == nil })
	w.fds.next = 0
}

func (w *Watcher) pollOne(dir string, dp *dirPoll, c *changes) int {
	now := w.listPolled(dir)
	if now == nil {
		w.forgetPolled(dir) // gone: its parent (watched or polled) reports it
		return 0
	}
	for name, fi := range now {
		p := filepath.Join(dir, name)
		was := dp.entries[name]
		if fi.IsDir() && (was == nil || !was.IsDir()) {
			c.appeared(p)
			w.newPolledDir(p)
			continue
		}
		if fi.IsDir() {
			continue // a directory's own time changes with its entries, which are reported themselves
		}
		compare(p, was, fi, c)
	}
	for name, was := range dp.entries {
		if _, ok := now[name]; !ok {
			p := filepath.Join(dir, name)
			c.disappeared(p)
			if was.IsDir() {
				w.forgetPolled(p)
			}
		}
	}
	dp.entries = now
	return len(now)
}

// newPolledDir polls a directory found in a polled one, from an empty listing so that the entries it
// already holds are reported as created on the next poll.
func (w *Watcher) newPolledDir(dir string) {
	if _, ok := w.fds.dirs[dir]; ok {
		return
	}
	w.fds.dirs[dir] = &dirPoll{entries: map[string]fs.FileInfo{}}
	w.fds.order = append(w.fds.order, dir)
	w.publish()
}

// grow accounts for the descriptor kqueue opens (or closes) by itself for an entry created in (removed
// from) the watched directory dw.
func (w *Watcher) grow(dw *dirWatch, ev eventOps) {
	if w.fds.budget == 0 {
		return
	}
	switch {
	case ev.created:
		dw.cost++
		w.fds.used++
	case ev.gone && dw.cost > 1:
		dw.cost--
		w.fds.used--
	}
}

type eventOps struct{ created, gone bool }

// shed turns the deepest watched tree directories into polled ones until the watches fit in the budget
// again, after entries created in watched directories made kqueue open more descriptors.
func (w *Watcher) shed() {
	if w.fds.budget == 0 || w.fds.used <= w.fds.dirBudget()+w.fds.budget/fileReserveShare {
		return
	}
	var tree []string
	for d, dw := range w.dirs {
		if dw.tree && dw.worktree == "" && len(dw.files) == 0 && !w.isRoot(d) {
			tree = append(tree, d)
		}
	}
	slices.SortFunc(tree, func(a, b string) int {
		return strings.Count(b, string(filepath.Separator)) - strings.Count(a, string(filepath.Separator))
	})
	for _, d := range tree {
		if w.fds.used <= w.fds.dirBudget() {
			break
		}
		w.dropOne(d)
		w.loseFeeds(d)
		w.pollDir(d)
	}
}

func (w *Watcher) isRoot(d string) bool {
	_, ok := w.roots[d]
	return ok
}

// watchFile watches the subscribed file f by itself, if its directory is polled and the budget allows.
func (w *Watcher) watchFile(f string) bool {
	if w.fds.budget == 0 || w.fds.files[f] || w.fds.used+1 > w.fds.budget {
		return w.fds.files[f]
	}
	fi, err := os.Lstat(f)
	if err != nil || !fi.Mode().IsRegular() {
		return false // kqueue follows a symlink given to Add
	}
	if err := w.k.Add(f); err != nil {
		w.log.Debug("not watching file", "file", f, "err", err)
		return false
	}
	if fi2, err := os.Lstat(f); err != nil || !os.SameFile(fi, fi2) {
		_ = w.k.Remove(f) // swapped since: don't watch what it became
		return false
	}
	w.fds.files[f] = true
	w.fds.used++
	w.publish()
	return true
}

// unwatchFile drops the watch of the subscribed file f.
func (w *Watcher) unwatchFile(f string) {
	if !w.fds.files[f] {
		return
	}
	delete(w.fds.files, f)
	w.fds.used--
	if err := w.k.Remove(f); err != nil {
		w.log.Debug("removing file watch", "file", f, "err", err)
	}
	w.publish()
}

// fileEvent handles an event of a file watched by itself. A removed or renamed file loses its watch;
// polling finds (and reports, and watches) what replaces it.
func (w *Watcher) fileEvent(f string, ev eventOps, write bool, c *changes) {
	if write {
		c.changed.add(f)
	}
	if !ev.gone {
		return
	}
	c.disappeared(f)
	w.unwatchFile(f)
	if st := w.polled[f]; st != nil {
		st.info, st.stale = nil, false
	}
}
