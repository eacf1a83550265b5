package trigram

import (
	"context"
	"fmt"
	"io/fs"
	"log/slog"
	"maps"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/grove-mcp/grove/internal/panics"
)

// Tree is what an index reads of one root; its owner (fsres) gives it, so that the index sees exactly
// the files a grep of the tree would.
type Tree interface {
	// Walk visits the entries a grep walk visits below the directory dir ("." for the whole tree),
	// with paths relative to the tree, in walk order; fn may return fs.SkipDir.
	Walk(ctx context.Context, dir string, fn func(rel string, d fs.DirEntry) error) error
	// Read returns the text of the regular file rel as grep searches it, or skipped when grep skips
	// it (binary, too large); an error when it is gone or cannot be read.
	Read(rel string) (data []byte, skipped bool, err error)
	// Lstat returns the type of rel, not following a symlink.
	Lstat(rel string) (fs.FileMode, error)
	// Ignored reports whether rel is left out of walks (.gitignore rules, .git).
	Ignored(rel string, isDir bool) bool
	// Invalidate drops cached ignore rules: a .gitignore or the git index changed.
	Invalidate()
}

// Feed is a watcher's feed of the changes below one root (the server adapts watch.Feed to it).
type Feed interface {
	// Sync returns the absolute paths below the root with an event since the previous Sync, every
	// change made before the call included; lost reports that events may have been missed.
	Sync(ctx context.Context) (paths []string, lost bool, err error)
	// Cover makes sure the absolute directories are watched and reports whether all of them were.
	Cover(dirs []string) bool
	Close()
}

// Options configures [NewIndexes]; the zero value of a field means its default.
type Options struct {
	// Watch subscribes to the changes below an absolute root directory. nil keeps no index: without a
	// feed nothing can vouch that an index is current.
	Watch    func(root string) Feed
	MaxBytes int64         // one root's index; default DefaultMaxBytes
	Total    int64         // all indexes together; default DefaultTotal
	Idle     time.Duration // an index unused this long is dropped; default DefaultIdle
	Logger   *slog.Logger  // nil discards
}

const (
	// DefaultMaxBytes bounds one root's index: a tree of about 2 GB of source text.
	DefaultMaxBytes = 512 << 20
	// DefaultTotal bounds all indexes together.
	DefaultTotal = 1 << 30
	// DefaultIdle is how long an index is kept without a grep on its root, as history indexes are.
	DefaultIdle = 10 * time.Minute
	// maxInline is how many changed paths (files below a changed directory included) a grep applies
	// before searching; past it a rebuild in the background is cheaper, and the grep searches the tree.
	maxInline = 2048
	// buildWorkers read and scan files for a build: one core's worth each, and the machine's other
	// core stays free for requests.
	buildWorkers = 2
)

// Indexes keeps a trigram index per root directory, built in the background after the root's first
// grep and kept current from the watcher's feed. Safe for concurrent use.
type Indexes struct {
	opts Options
	log  *slog.Logger
	used atomic.Int64 // bytes of the indexes ready
	wg   sync.WaitGroup
	busy atomic.Int64 // greps under way (see Begin): a build starts once they are done
	// quietAt is when the answers of the greps that ended are written, as guessed by Settle (Unix
	// nanoseconds); a build does not start before it.
	quietAt atomic.Int64

	mu     sync.Mutex // guards the fields below
	roots  map[string]*rootIndex
	closed bool

	builds chan string // tests: gets the root of each build that ended, when not full
}

// rootIndex is one root's index and the state around it.
type rootIndex struct {
	root string
	feed Feed

	mu       sync.Mutex // guards the fields below; held by a grep while it syncs and queries
	tree     Tree
	x        *Index // nil while none is ready
	counted  int64  // x's bytes as added to Indexes.used when it was installed
	building bool
	relist   bool  // the next build keeps x's content and re-walks the tree for its file list
	failed   error // why no index is kept (memory cap); cleared when the state is dropped as idle
	built    time.Duration
	stop     context.CancelFunc
	done     chan struct{} // closed when the build under way ends
	idle     *time.Timer
	dropped  bool
}

// NewIndexes returns an empty set of indexes.
func NewIndexes(opts Options) *Indexes {
	if opts.MaxBytes <= 0 {
		opts.MaxBytes = DefaultMaxBytes
	}
	if opts.Total <= 0 {
		opts.Total = DefaultTotal
	}
	if opts.Idle <= 0 {
		opts.Idle = DefaultIdle
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Indexes{opts: opts, log: log, roots: map[string]*rootIndex{}}
}

// Search returns the files of root that may match q, after bringing root's index up to date with
// every change made before the call. It returns nil when there is no index to answer from (none yet,
// one being built, events lost, too many changes): the caller searches the tree itself. The first
// call for a root starts its build in the background.
func (s *Indexes) Search(ctx context.Context, root string, tree Tree, q *Query) (*Candidates, error) {
	r := s.state(root, tree)
	if r == nil {
		return nil, nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.tree = tree
	if r.x == nil || r.dropped {
		s.startLocked(r, false)
		return nil, nil
	}
	paths, lost, err := r.feed.Sync(ctx)
	if err != nil {
		return nil, err
	}
	if lost {
		s.log.Debug("trigram index stale: events lost", "root", root)
		s.dropLocked(r)
		s.startLocked(r, false)
		return nil, nil
	}
	switch s.apply(ctx, r, paths) {
	case applyRebuild:
		s.dropLocked(r)
		s.startLocked(r, false)
		return nil, nil
	case applyRelist:
		s.startLocked(r, true)
		return nil, nil
	}
	if r.x.Worn() {
		s.dropLocked(r)
		s.startLocked(r, false)
		return nil, nil
	}
	if !s.recountLocked(r) {
		return nil, nil
	}
	return r.x.Candidates(q), nil
}

// recountLocked brings r's share of the memory in use up to date once changes are applied to its
// index. An index that grew past the cap of all indexes together is dropped, and not built again
// until its root's state is forgotten as idle, as one that passed the cap when it was built; it
// reports whether r's index is kept. r.mu held.
func (s *Indexes) recountLocked(r *rootIndex) bool {
	b := r.x.Bytes()
	delta := b - r.counted
	if delta > 0 && s.used.Add(delta) > s.opts.Total {
		s.used.Add(-delta)
		s.dropLocked(r)
		r.failed = s.totalCapError()
		s.log.Info("trigram index dropped: total memory cap reached", "root", r.root, "cap", s.opts.Total)
		return false
	}
	if delta < 0 {
		s.used.Add(delta)
	}
	r.counted = b
	return true
}

func (s *Indexes) totalCapError() error {
	return fmt.Errorf("not indexed: the memory cap of all indexes (%d MiB) was reached", s.opts.Total>>20)
}

// state returns root's state, creating it (and starting its build) on first use; nil without a feed
// or after Close.
func (s *Indexes) state(root string, tree Tree) *rootIndex {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed || s.opts.Watch == nil {
		return nil
	}
	r := s.roots[root]
	if r == nil {
		feed := s.opts.Watch(root)
		if feed == nil {
			return nil
		}
		r = &rootIndex{root: root, feed: feed, tree: tree}
		r.idle = time.AfterFunc(s.opts.Idle, func() {
			defer panics.Log(s.log, "dropping an idle trigram index")
			s.forget(r)
		})
		s.roots[root] = r
		return r
	}
	r.idle.Reset(s.opts.Idle)
	return r
}

// Touch notes a grep on root that had no use for its index (nothing to extract from the pattern),
// so that the index is not dropped as idle while the root is being searched.
func (s *Indexes) Touch(root string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r := s.roots[root]; r != nil {
		r.idle.Reset(s.opts.Idle)
	}
}

// startLocked starts a build of r unless one runs or r gave up; relist keeps r's content. r.mu held.
func (s *Indexes) startLocked(r *rootIndex, relist bool) {
	if r.building || r.failed != nil || r.dropped {
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	r.building, r.stop, r.done = true, cancel, make(chan struct{})
	old := r.x
	if !relist {
		s.dropLocked(r)
		old = nil
	} else if old != nil {
		s.used.Add(-r.counted) // counted again when the relist ends
		r.counted = 0
	}
	r.x, r.relist = nil, false
	tree := r.tree
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		r.building = false
		cancel()
		return
	}
	s.wg.Go(func() {
		defer panics.Log(s.log, "building a trigram index")
		defer cancel()
		s.waitQuiet(ctx)
		s.build(ctx, r, tree, old)
	})
}

// quietWait bounds how long a build waits for the greps under way to end: on 2 cores a build that
// starts beside the grep that asked for it takes half the CPU that grep needs (the first grep of a
// root is the cold path), but a root grepped without pause must still get its index. A first grep of
// a 1 GB tree takes seconds, several times 2 s on a loaded machine: a build that started during it
// took 40 s of CPU from it and made it 12x slower than ripgrep.
const quietWait = 30 * time.Second

// Begin tells s that a grep is under way until the returned func is called; builds wait for it.
func (s *Indexes) Begin() (end func()) {
	s.busy.Add(1)
	var once sync.Once
	return func() { once.Do(func() { s.busy.Add(-1) }) }
}

// Settle keeps builds waiting for d more once the greps under way have ended. A grep's handler
// returns before its answer is encoded and written, which for 25,000 matching lines is a 3 MB answer
// and tens of milliseconds of CPU: a build starting beside it doubled the CPU time of such a first
// grep, up to its answer's last byte, on 2 cores. Call it before the end func of [Indexes.Begin].
func (s *Indexes) Settle(d time.Duration) {
	at := time.Now().Add(d).UnixNano()
	for {
		old := s.quietAt.Load()
		if old >= at || s.quietAt.CompareAndSwap(old, at) {
			return
		}
	}
}

// waitQuiet waits until no grep is under way and the answers of those that ended are written (see
// Settle), quietWait at most, or ctx ends.
func (s *Indexes) waitQuiet(ctx context.Context) {
	const poll = 5 * time.Millisecond
	t := time.NewTicker(poll)
	defer t.Stop()
	busy := func() bool { return s.busy.Load() > 0 || time.Now().UnixNano() < s.quietAt.Load() }
	for waited := time.Duration(0); busy() && waited < quietWait; waited += poll {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Wait waits until root has an index ready, or no build is under way (none started, or the last one
// failed), or ctx ends; it reports whether an index is ready. Benchmarks and tests use it to warm up.
func (s *Indexes) Wait(ctx context.Context, root string) bool {
	for {
		s.mu.Lock()
		r := s.roots[root]
		s.mu.Unlock()
		if r == nil {
			return false
		}
		r.mu.Lock()
		ready, building, done := r.x != nil, r.building, r.done
		r.mu.Unlock()
		if ready || !building {
			return ready
		}
		select {
		case <-done:
		case <-ctx.Done():
			return false
		}
	}
}

// dropLocked forgets r's index, giving back its memory. r.mu held.
func (s *Indexes) dropLocked(r *rootIndex) {
	if r.x != nil {
		s.used.Add(-r.counted)
		r.x, r.counted = nil, 0
	}
}

// forget drops r for good (idle, or Close): its build stops, its feed ends.
func (s *Indexes) forget(r *rootIndex) {
	s.mu.Lock()
	if s.roots[r.root] == r {
		delete(s.roots, r.root)
	}
	s.mu.Unlock()
	r.mu.Lock()
	defer r.mu.Unlock()
	r.dropped = true
	if r.stop != nil {
		r.stop()
	}
	r.idle.Stop()
	s.dropLocked(r)
	r.feed.Close()
}

// Close drops every index and waits for the builds to stop.
func (s *Indexes) Close() {
	s.mu.Lock()
	s.closed = true
	rs := slices.Collect(maps.Values(s.roots))
	s.mu.Unlock()
	for _, r := range rs {
		s.forget(r)
	}
	s.wg.Wait()
}

// RootStats describes one root's index.
type RootStats struct {
	Root  string
	State string // "building", "ready", or why there is none ("memory cap reached")
	Stats
	BuildTime time.Duration // of the last build
}

// Stats describes the roots with an index or a build under way, by root.
func (s *Indexes) Stats() []RootStats {
	s.mu.Lock()
	rs := slices.Collect(maps.Values(s.roots))
	s.mu.Unlock()
	var out []RootStats
	for _, r := range rs {
		r.mu.Lock()
		st := RootStats{Root: r.root, BuildTime: r.built}
		switch {
		case r.failed != nil:
			st.State = r.failed.Error()
		case r.x != nil:
			st.State, st.Stats = "ready", r.x.Stats()
		case r.building:
			st.State = "building"
		default:
			st.State = "stale"
		}
		r.mu.Unlock()
		out = append(out, st)
	}
	slices.SortFunc(out, func(a, b RootStats) int { return compareStrings(a.Root, b.Root) })
	return out
}

// Used is the memory the ready indexes hold.
func (s *Indexes) Used() int64 { return s.used.Load() }

func compareStrings(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
