package watch

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"time"

	"github.com/fsnotify/fsnotify"
)

// A Feed tells one consumer which paths below a directory had events since it last asked, for state
// kept up to date incrementally (git status): [Feed.Sync] returns the paths and clears them. Unlike
// batches, a feed is not debounced, not filtered by [Options.Ignore], and reports attribute changes
// (chmod) too. When events may have been missed (the kernel queue overflowed, the Watcher is degraded or
// closed, a watch below the directory was dropped by SetRoots, the feed is new), Sync says so and the
// consumer must look at everything again. Sync does not check that the directory is watched: the
// consumer calls [Feed.Cover] with the directories it depends on after looking at everything.
//
// Neither Sync nor Cover waits for a walk of the roots (SetRoots, a rescan), which holds the Watcher's lock:
// Sync reports Lost at once when the feed is lost anyway or a walk is running, and Cover reports false
// during a walk.
//
//	f := w.Subscribe("/home/me/project")
//	defer f.Close()
//	ch, err := f.Sync(ctx) // every change made before the call is in ch, or ch.Lost is set
type Feed struct {
	w   *Watcher
	dir string

	// guarded by w.feedMu
	paths set
	lost  bool
}

// Changes is what [Feed.Sync] returns.
type Changes struct {
	Paths []string // absolute paths below the feed's directory with an event, sorted
	// Lost reports that events may have been missed since the last Sync: the consumer must treat every
	// path below the directory as changed.
	Lost bool
}

// maxFeedPaths bounds the paths a feed holds between two Syncs (about 100 bytes each); past it the
// feed is lost, which costs its consumer one full look instead of memory.
const maxFeedPaths = 1 << 16

// SyncTimeout bounds how long Sync waits for the Watcher to catch up with the file system. Events take
// well under a millisecond from the kernel to the Watcher; a Watcher busy adding watches for a large new
// tree can take longer, and then Sync reports Lost rather than making its caller wait.
var SyncTimeout = 2 * time.Second

// Subscribe returns a feed of the changes below dir (absolute, clean). Its first Sync reports Lost.
// Close it when done.
func (w *Watcher) Subscribe(dir string) *Feed {
	f := &Feed{w: w, dir: filepath.Clean(dir), lost: true}
	w.feedMu.Lock()
	defer w.feedMu.Unlock()
	if w.feeds == nil {
		w.feeds = make(map[*Feed]struct{})
	}
	w.feeds[f] = struct{}{}
	return f
}

// Close ends the feed.
func (f *Feed) Close() {
	f.w.feedMu.Lock()
	defer f.w.feedMu.Unlock()
	delete(f.w.feeds, f)
	f.paths, f.lost = nil, true
}

// Sync waits until the Watcher has seen every event the kernel queued before the call (a barrier: see
// cookie), then returns the paths collected since the previous Sync and forgets them. It reports Lost
// when the barrier could not be passed in time, and fails only when ctx is done.
func (f *Feed) Sync(ctx context.Context) (Changes, error) {
	if err := ctx.Err(); err != nil {
		return Changes{}, err
	}
	if !orderedEvents {
		f.w.feedMu.Lock()
		f.paths, f.lost = nil, false
		f.w.feedMu.Unlock()
		return Changes{Lost: true}, nil
	}
	// A lost feed needs no barrier: everything is looked at. During a walk of the roots (SetRoots, a
	// rescan) the Watcher handles no event until it ends, so the barrier would wait for it: report Lost.
	walking := f.w.walking.Load()
	synced := f.lostNow() || !walking && f.w.barrier(ctx)
	if err := ctx.Err(); err != nil {
		return Changes{}, err
	}
	w := f.w
	w.feedMu.Lock()
	defer w.feedMu.Unlock()
	_, subscribed := w.feeds[f]
	ch := Changes{Paths: f.paths.sorted(), Lost: f.lost || walking || !synced || !subscribed || w.stopped() || w.degradedNow()}
	f.paths, f.lost = nil, false
	if ch.Lost {
		ch.Paths = nil
	}
	return ch, nil
}

// degradedNow reports whether some directory could not be watched, or is polled (polling doesn't feed
// feeds), without waiting for w.mu.
func (w *Watcher) degradedNow() bool {
	p := w.published.Load()
	return p != nil && (p.Degraded || p.Polled > 0)
}

// lostNow reports whether the feed has lost events already, or will report it.
func (f *Feed) lostNow() bool {
	w := f.w
	w.feedMu.Lock()
	defer w.feedMu.Unlock()
	_, subscribed := w.feeds[f]
	return f.lost || !subscribed || w.stopped()
}

// Cover makes sure each of dirs (absolute directories below the feed's) is watched as part of a tree,
// adding the watches that are missing. It reports whether all of them were watched already: a consumer
// that listed them before calling may have missed changes in the ones added, and should look again.
// Watches are only added inside directory roots. It reports false without waiting while the Watcher
// walks the roots (SetRoots, a rescan).
func (f *Feed) Cover(dirs []string) bool {
	w := f.w
	if w.walking.Load() {
		return false
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return false
	}
	all := true
	for _, d := range dirs {
		if dw := w.dirs[d]; dw != nil && dw.tree {
			continue
		}
		all = false
		if !within(d, f.dir) || !w.underDirRoot(d) {
			continue
		}
		dw, err := w.watchDir(d, false)
		if err != nil {
			w.addFailed(d, err)
			continue
		}
		dw.tree = true
	}
	return all
}

// record adds the path of an event to the feeds below which it lies.
func (w *Watcher) record(p string) {
	w.feedMu.Lock()
	defer w.feedMu.Unlock()
	for f := range w.feeds {
		if f.lost || !within(p, f.dir) {
			continue
		}
		if len(f.paths) >= maxFeedPaths {
			f.paths, f.lost = nil, true
			continue
		}
		f.paths.add(p)
	}
}

// loseFeeds marks the feeds below which dir lies (all of them for "") lost.
func (w *Watcher) loseFeeds(dir string) {
	w.feedMu.Lock()
	defer w.feedMu.Unlock()
	for f := range w.feeds {
		if dir == "" || within(dir, f.dir) || within(f.dir, dir) {
			f.paths, f.lost = nil, true
		}
	}
}

// The barrier is a cookie, as git's fsmonitor protocol uses: Sync creates a file in a directory of
// grove's own (a temporary directory outside the roots, so nothing is written to the user's tree or
// .git, and --read-only holds) that the Watcher also watches, and waits until the Watcher handles its
// event. inotify queues the events of one instance in order and fsnotify reads them with one goroutine
// that sends each (events and errors alike, on unbuffered channels) before reading the next, and drain
// and process keep that order: once the cookie's event is handled, every event queued before it has been,
// and an overflow queued before it has marked the feeds lost.

// orderedEvents is whether the barrier holds: the order argued above is inotify's. kqueue (macOS, BSD)
// reports a directory's new entries by listing it again, and that order is not established there, so
// every Sync reports Lost.
const orderedEvents = runtime.GOOS == "linux"

// barrier creates a cookie and waits for its event; false if that failed or took longer than
// SyncTimeout.
func (w *Watcher) barrier(ctx context.Context) bool {
	name, seen, ok := w.newCookie()
	if !ok {
		return false
	}
	defer w.dropCookie(name)
	fh, err := os.OpenFile(name, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		w.feedMu.Lock()
		w.resetCookies() // the directory was removed behind our back: make a new one next time
		w.feedMu.Unlock()
		return false
	}
	fh.Close()
	t := time.NewTimer(SyncTimeout)
	defer t.Stop()
	select {
	case <-seen:
		return true
	case <-t.C:
	case <-ctx.Done():
	case <-w.stop:
	}
	return false
}

// newCookie registers the next cookie's path, making and watching the cookie directory the first time.
func (w *Watcher) newCookie() (name string, seen chan struct{}, ok bool) {
	w.feedMu.Lock()
	defer w.feedMu.Unlock()
	if w.stopped() {
		return "", nil, false
	}
	if w.cookieDir == "" {
		dir, err := os.MkdirTemp("", "grove-sync-")
		if err != nil {
			w.log.Debug("no directory for sync cookies", "err", err)
			return "", nil, false
		}
		if err := w.k.Add(dir); err != nil {
			os.Remove(dir)
			w.log.Debug("watching the sync cookie directory", "err", err)
			return "", nil, false
		}
		w.cookieDir, w.cookies = dir, make(map[string]chan struct{})
	}
	w.cookieSeq++
	name = filepath.Join(w.cookieDir, strconv.FormatUint(w.cookieSeq, 10))
	seen = make(chan struct{})
	w.cookies[name] = seen
	return name, seen, true
}

func (w *Watcher) dropCookie(name string) {
	os.Remove(name)
	w.feedMu.Lock()
	delete(w.cookies, name)
	w.feedMu.Unlock()
}

// cookie handles an event in the cookie directory: a cookie's creation is remembered in seen, to be
// released once the events before it are applied.
func (w *Watcher) cookie(ev fsnotify.Event, seen *[]chan struct{}) {
	w.feedMu.Lock()
	defer w.feedMu.Unlock()
	if ch, ok := w.cookies[filepath.Clean(ev.Name)]; ok && ev.Has(fsnotify.Create) {
		*seen = append(*seen, ch)
		delete(w.cookies, filepath.Clean(ev.Name))
	}
}

// isCookie reports whether p is in the cookie directory.
func (w *Watcher) isCookie(p string) bool {
	w.feedMu.Lock()
	defer w.feedMu.Unlock()
	return w.cookieDir != "" && filepath.Dir(p) == w.cookieDir
}

// resetCookies forgets the cookie directory, removing it; waiting Syncs time out. w.feedMu must be held.
func (w *Watcher) resetCookies() {
	if w.cookieDir == "" {
		return
	}
	_ = w.k.Remove(w.cookieDir)
	if err := os.RemoveAll(w.cookieDir); err != nil && !errors.Is(err, os.ErrNotExist) {
		w.log.Debug("removing the sync cookie directory", "err", err)
	}
	w.cookieDir, w.cookies = "", nil
}
