// Package watch reports file changes under a set of directories (and single files) in debounced batches.
//
// It owns the fsnotify watcher and everything inotify needs around it: one watch per non-ignored directory,
// watches added for new directories (which are scanned at once, so files created before the watch was in place
// are still reported), watches dropped for removed ones, the .git directory and .git/refs/** watched so that
// commits, checkouts and staging show up as [Batch.Git], and a degraded mode when the kernel's watch limit is
// reached. It knows nothing of MCP: the server turns batches into notifications.
//
// Paths in batches are absolute OS paths, lexically below a root; symlinked directories are never followed.
//
//	w, err := watch.New(watch.Options{Ignore: ignored, Logger: logger})
//	if err != nil {
//		return err
//	}
//	defer w.Close()
//	if err := w.SetRoots([]string{"/home/me/project"}); err != nil {
//		logger.Warn("some roots are not watched", "err", err)
//	}
//	w.SetPolled([]string{"/home/me/project/go.mod"}) // subscribed files: polled if inotify can't watch them
//	for b := range w.Batches() {
//		if b.Rescan {
//			// events were lost: treat every watched path as changed
//		}
//		for _, p := range b.Changed {
//			// notify the subscribers of p
//		}
//	}
//
// # Batches
//
// Events are coalesced until no new change arrived for [Options.Debounce] (a path written twice is one
// change), or [Options.MaxDelay] passed since the first one. Nothing is dropped: while the consumer doesn't read, new changes keep merging into the batch it
// will get. A path may appear in several lists of one batch (created, written and removed within a burst); the
// lists say what happened, not the final state, so consumers stat a path to learn it. A removed or renamed-away
// directory is listed with the subdirectories that were watched below it, but not with every file it held:
// consumers treat every path below a Removed directory as removed.
//
// # Feeds
//
// Consumers that keep state computed from the tree (warm git status) subscribe to a directory with
// [Watcher.Subscribe]: [Feed.Sync] returns every path with an event since the last Sync, after a barrier
// that makes sure every change made before the call has been seen, or says that events were lost and
// everything must be looked at again. [Feed.Cover] adds the watches such a consumer depends on.
//
// # Limits
//
// inotify needs one watch per directory, out of a per-user budget (fs.inotify.max_user_watches) shared with
// IDEs and other tools. When Add fails for lack of watches, the Watcher logs one warning, reports
// [Status.Degraded] with the reason, keeps what is already watched, and stats the files given to
// [Watcher.SetPolled] whose directories are not watched every [Options.PollInterval]. A later SetRoots that
// frees watches, or a rescan after lost events, retries the directories that failed.
//
// # Descriptors
//
// On macOS and the BSDs fsnotify uses kqueue, which holds an open file descriptor for every watched
// directory and for every entry of it (files and subdirectories alike), and opens one more for each entry
// created in it later. There the watches may hold half of the process's descriptor limit (RLIMIT_NOFILE,
// see [DescriptorBudget]); the other half is headroom, so that reads, repositories and connections never
// fail with EMFILE. Within the budget the Watcher watches what matters first: the directories nearest the
// roots (it walks breadth first there) and subscribed files ([Watcher.SetPolled]), for which an eighth of
// the budget is kept: one whose directory is not watched is watched by itself, at one descriptor. Directories that don't fit are
// polled every [Options.PollInterval] (at most 20,000 entries per interval, round robin): their changes
// arrive late, but arrive. When files created in watched directories push the watches past the budget, the
// deepest watched directories are polled instead. [Status] says how many descriptors are held, of what
// budget, and how many directories are polled. Polled directories don't feed [Feed]s, whose Sync reports
// Lost while any is polled. This is not degraded mode: nothing is missed.
package watch

import (
	"errors"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/grove-mcp/grove/internal/panics"
)

const (
	// DefaultDebounce is the quiet period that ends a burst. All events of one editor save (temp file, write,
	// fsync, rename over the target) arrive within a few milliseconds, so 50 ms folds a save into one batch
	// while staying far below the delay a person notices (gopls and litestream debounce similarly).
	DefaultDebounce = 50 * time.Millisecond
	// DefaultMaxDelay caps how long a continuous burst (a checkout, a build writing files for minutes) can
	// hold back a batch, so subscribers still hear about changes while it lasts.
	DefaultMaxDelay = 300 * time.Millisecond
	// DefaultPollInterval is how often polled files are stat'ed in degraded mode: a second keeps the cost of
	// a few hundred stats negligible and is still fresher than a person switching windows.
	DefaultPollInterval = time.Second
)

// ErrClosed is returned by SetRoots after Close.
var ErrClosed = errors.New("watch: watcher closed")

// Options configures a Watcher. The zero value is usable.
type Options struct {
	Debounce time.Duration // trailing quiet period that ends a batch; 0 means DefaultDebounce
	MaxDelay time.Duration // longest a batch waits during a continuous burst; 0 means DefaultMaxDelay
	// Ignore reports whether an absolute path is ignored (the server's .gitignore matcher). Ignored
	// directories are not watched and ignored paths are not reported, except files given to SetPolled.
	// It is called with the Watcher's lock held and must not call back into the Watcher. nil ignores nothing.
	Ignore       func(abs string, isDir bool) bool
	Logger       *slog.Logger  // nil discards
	PollInterval time.Duration // how often unwatchable polled files are stat'ed; 0 means DefaultPollInterval

	// MaxWatches caps the directories watched, below the kernel's per-user
	// limit that grove shares with IDEs and other tools; past it, grove
	// degrades as at the kernel's limit. 0 means only the kernel's limit.
	MaxWatches int

	kernel *kernelSpec // nil means fsnotifyKernel; tests give a fake
}

// Status describes the watch set, for diagnostics (doctor, list_roots).
type Status struct {
	Watches  int    // directories watched now
	Degraded bool   // some directories could not be watched; their changes are missed unless polled
	Reason   string // why Degraded
	Limit    int    // the system's watch limit (Linux max_user_watches); 0 when unknown

	// Where watches cost file descriptors (kqueue: macOS, BSD), see "Descriptors" in the package doc.
	Budget      int // descriptors the watches may hold; 0 when watches cost none
	Descriptors int // descriptors the watches hold now (an upper bound)
	Polled      int // directories polled every PollInterval because watching them would pass Budget
	FileWatches int // subscribed files watched one by one because their directory is polled
}

// A Watcher watches roots and delivers batches of changes on Batches. Its methods are safe for concurrent use.
type Watcher struct {
	opts Options
	log  *slog.Logger
	k    kernel

	out   chan Batch    // Batches; closed when run returns
	wake  chan struct{} // cap 1: the inbox has something
	stop  chan struct{} // closed by Close
	inbox inbox         // from drain to run

	closeOnce sync.Once
	closeErr  error
	wg        sync.WaitGroup

	mu       sync.Mutex // guards all fields below
	closed   bool
	roots    map[string]bool      // absolute root path -> is a single file
	dirs     map[string]*dirWatch // watched directories
	polled   map[string]*fileState
	degraded string // reason; "" when every directory that should be watched is
	// published is Status without its Limit, updated under mu whenever dirs or
	// degraded change, so that Status never waits for a walk holding mu.
	published atomic.Pointer[Status]
	walking   atomic.Bool // SetRoots or a rescan walks the roots, holding mu (see Feed.Sync)
	warned    bool        // the degraded warning was logged (once per Watcher)
	fds       fdBudget    // descriptors held by watches, where they cost some

	// feedMu guards the fields below; taken after mu when both are (record, loseFeeds), and never
	// waits for mu, so that Sync doesn't wait for a walk.
	feedMu sync.Mutex

	feeds     map[*Feed]struct{}       // see Subscribe
	cookieDir string                   // see barrier; "" until the first Sync
	cookies   map[string]chan struct{} // cookie path -> closed once its event is handled
	cookieSeq uint64
}

// New starts a Watcher with no roots. Close it to release the inotify instance and its goroutines.
func New(opts Options) (*Watcher, error) {
	if opts.Debounce <= 0 {
		opts.Debounce = DefaultDebounce
	}
	if opts.MaxDelay <= 0 {
		opts.MaxDelay = DefaultMaxDelay
	}
	if opts.MaxDelay < opts.Debounce {
		opts.MaxDelay = opts.Debounce
	}
	if opts.PollInterval <= 0 {
		opts.PollInterval = DefaultPollInterval
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	spec := fsnotifyKernel
	if opts.kernel != nil {
		spec = *opts.kernel
	}
	k, err := spec.open()
	if err != nil {
		return nil, err
	}
	w := &Watcher{
		opts:   opts,
		log:    log.With("watcher", "fsnotify"),
		k:      k,
		out:    make(chan Batch),
		wake:   make(chan struct{}, 1),
		stop:   make(chan struct{}),
		roots:  make(map[string]bool),
		dirs:   make(map[string]*dirWatch),
		polled: make(map[string]*fileState),
		fds:    newFDBudget(spec),
	}
	w.wg.Go(func() {
		defer panics.Log(w.log, "draining file events")
		w.drain()
	})
	w.wg.Go(func() {
		defer panics.Log(w.log, "batching file events")
		w.run()
	})
	return w, nil
}

// Batches delivers the changes. It is closed by Close.
func (w *Watcher) Batches() <-chan Batch { return w.out }

// Status reports the size and health of the watch set.
func (w *Watcher) Status() Status {
	var st Status
	if p := w.published.Load(); p != nil {
		st = *p
	}
	st.Limit = systemLimit()
	return st
}

// publish records the status for Status; w.mu must be held.
func (w *Watcher) publish() {
	w.published.Store(&Status{Watches: len(w.dirs), Degraded: w.degraded != "", Reason: w.degraded,
		Budget: w.fds.budget, Descriptors: w.fds.used, Polled: len(w.fds.dirs), FileWatches: len(w.fds.files)})
}

// Close stops watching, waits for the Watcher's goroutines and closes Batches. It is idempotent.
func (w *Watcher) Close() error {
	w.closeOnce.Do(func() {
		close(w.stop) // first, so that a walk in progress under mu stops early
		w.mu.Lock()
		w.closed = true
		w.mu.Unlock()
		w.closeErr = w.k.Close()
		w.wg.Wait()
		w.feedMu.Lock()
		w.resetCookies()
		w.feedMu.Unlock()
	})
	return w.closeErr
}

func (w *Watcher) stopped() bool {
	select {
	case <-w.stop:
		return true
	default:
		return false
	}
}

func (w *Watcher) ignored(abs string, isDir bool) bool {
	return w.opts.Ignore != nil && w.opts.Ignore(abs, isDir)
}
