package grep

import (
	"context"
	"errors"
	"sync"

	"github.com/grove-mcp/grove/internal/panics"
)

// Workers is how many goroutines read and search files, besides the one
// that walks.
const Workers = 2

// Request is one search.
type Request struct {
	Pattern       *Pattern
	Mode          Mode
	Before, After int   // context lines (Content mode)
	Max           int   // most matching lines (Content) or files (the other modes); must be positive
	MaxFileSize   int64 // larger files are skipped and counted; must be positive
	// Candidate, when set, says whether the file rel can hold a match; a
	// file it rules out is counted as searched without being read. An index
	// that knows the pattern's literals (Pattern.Literals) plugs in here.
	Candidate func(rel string) bool
}

// Tree is what a search reads: Walk reports the regular files to search,
// by path relative to the searched directory, in the order the answer
// lists them; NewOpener opens them.
type Tree struct {
	Walk      func(ctx context.Context, visit func(rel string) error) error
	NewOpener func() Opener
}

// Hits is what one file contributed.
type Hits struct {
	Rel     string
	Lines   []Line // Content mode: matches and context, in line order
	Matches int    // matching lines (FilesWithMatches: 1)
	outcome outcome
}

// Result is the answer to a search, files in walk order.
type Result struct {
	Files    []Hits // files with matches
	Matches  int    // matching lines shown (Content) or counted
	Searched int    // files searched (read, or ruled out by Request.Candidate)
	Binary   int    // files skipped as binary
	TooLarge int    // files skipped for their size
	Cut      bool   // Max was reached: more matches (or files) exist
}

// Search searches the files of t on [Workers] goroutines while this one
// walks; results are committed in walk order, so the answer is the same on
// every run. A worker that panics ends the search with an error: the files
// it held would otherwise be missing from an answer that looks whole.
func Search(ctx context.Context, req Request, t Tree) (*Result, error) {
	if req.Pattern == nil || req.Max <= 0 || req.MaxFileSize <= 0 {
		return nil, errors.New("grep: incomplete request") // a programmer error
	}
	parent := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	col := &collector{req: &req, stop: cancel, pending: make(map[int][]Hits)}
	q := newQueue(ctx)
	defer q.release()
	var wg sync.WaitGroup
	errs := make([]error, Workers)
	for i := range Workers {
		wg.Go(func() {
			if err := work(ctx, &req, t.NewOpener(), q, col); err != nil {
				errs[i] = err
				cancel()
			}
		})
	}
	walkErr := func() error {
		defer q.close() // even if the walk panics: the workers must end
		return feed(ctx, &req, t, q)
	}()
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	if err := parent.Err(); err != nil { // files may have been skipped: the answer is not whole
		return nil, err
	}
	res := col.result()
	if walkErr != nil && !res.Cut { // when cut, we cancelled the walk ourselves
		return nil, walkErr
	}
	return res, nil
}

// batchSize is the most files a worker takes at once, and how many the walk
// gathers before it wakes a worker: one lock and one commit per run of files
// rather than per file keeps the goroutines from waking each other for
// every small file.
const batchSize = 16

// queue holds the files of the walk for the workers, in walk order. The
// walk never waits for the workers: had it waited (a full channel), it
// would have to be scheduled again to go on, and a worker that took the
// last files could idle for milliseconds while the other held both the
// processor and the walk's wake-up. Its memory is the walk's paths, which
// the walk made anyway.
type queue struct {
	mu     sync.Mutex // guards the fields below
	more   sync.Cond  // signalled when files are added, the walk ends or ctx ends
	rels   []string
	ruled  []bool // per file: ruled out by Request.Candidate; nil while none is
	taken  int    // files handed out: rels[:taken]
	closed bool   // the walk ended
	ended  bool   // ctx ended
	stop   func() bool
}

func newQueue(ctx context.Context) *queue {
	q := &queue{}
	q.more.L = &q.mu
	q.stop = context.AfterFunc(ctx, func() {
		q.mu.Lock()
		q.ended = true
		q.mu.Unlock()
		q.more.Broadcast()
	})
	return q
}

// release stops watching the search's context.
func (q *queue) release() { q.stop() }

// add appends a run of the walk's files.
func (q *queue) add(rels []string, ruled []bool) {
	q.mu.Lock()
	if ruled != nil && q.ruled == nil {
		q.ruled = make([]bool, len(q.rels), cap(q.rels))
	}
	q.rels = append(q.rels, rels...)
	if q.ruled != nil {
		if ruled == nil {
			ruled = make([]bool, len(rels))
		}
		q.ruled = append(q.ruled, ruled...)
	}
	q.mu.Unlock()
	q.more.Signal()
}

// close says the walk has ended.
func (q *queue) close() {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
	q.more.Broadcast()
}

// take waits for files and hands out the next run: batchSize files while
// the walk goes on; once it has ended, runs that shrink with what is left
// (down to one file), so that the workers finish together rather than one
// searching a last long run alone. It returns the run's place in the walk,
// or ok false when there is nothing left or ctx has ended.
func (q *queue) take() (first int, rels []string, ruled []bool, ok bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for !q.ended && len(q.rels)-q.taken < batchSize && !q.closed {
		q.more.Wait()
	}
	left := len(q.rels) - q.taken
	if q.ended || left == 0 {
		return 0, nil, nil, false
	}
	n := min(left, batchSize)
	if q.closed {
		n = max(1, min(n, left/(2*Workers)))
	}
	first = q.taken
	q.taken += n
	rels = q.rels[first:q.taken:q.taken]
	if q.ruled != nil {
		ruled = q.ruled[first:q.taken:q.taken]
	}
	return first, rels, ruled, true
}

// feed hands the files of the walk to the workers in runs, in walk order,
// until ctx ends.
func feed(ctx context.Context, req *Request, t Tree, q *queue) error {
	rels := make([]string, 0, batchSize)
	var ruled []bool
	send := func() error {
		q.add(rels, ruled)
		rels, ruled = rels[:0], nil
		return ctx.Err() // the search was cut or cancelled: the walk goes no further
	}
	err := t.Walk(ctx, func(rel string) error {
		out := req.Candidate != nil && !req.Candidate(rel)
		if out && ruled == nil {
			ruled = make([]bool, len(rels), batchSize)
		}
		rels = append(rels, rel)
		if ruled != nil {
			ruled = append(ruled, out)
		}
		if len(rels) == batchSize {
			return send()
		}
		return nil
	})
	if err == nil && len(rels) > 0 {
		err = send()
	}
	return err
}

// work searches the runs of q until there are no more.
func work(ctx context.Context, req *Request, o Opener, q *queue, col *collector) (err error) {
	defer panics.Catch(&err)
	defer o.Close()
	s := &scanner{p: req.Pattern, mode: req.Mode, before: req.Before, after: req.After, limit: req.Max + 1}
	if req.Mode == FilesWithMatches {
		s.limit = 1
	} else if req.Mode == Count {
		s.limit = int(^uint(0) >> 1)
	}
	buf := getBuffer()
	data := *buf
	defer func() { putBuffer(buf, data) }()
	for {
		first, rels, ruled, ok := q.take()
		if !ok {
			return nil
		}
		hits := make([]Hits, len(rels))
		for i, rel := range rels {
			h := &hits[i]
			h.Rel = rel
			switch {
			case ruled != nil && ruled[i]:
				h.outcome = searched
			case ctx.Err() == nil:
				data = searchFile(req, s, o, h, data)
			}
		}
		col.add(first, hits)
	}
}

// searchFile opens, reads and scans one file into h; it returns the buffer
// to read the next file into.
func searchFile(req *Request, s *scanner, o Opener, h *Hits, buf []byte) []byte {
	data, err := ReadFile(o, h.Rel, req.MaxFileSize, buf)
	l, ok := o.(Lender)
	lent := ok && err == nil && l.Lent(data)
	switch {
	case errors.Is(err, errTooLarge):
		h.outcome = tooLarge
	case err != nil:
	case !lent && isBinary(data): // a lent text was found to be text when it was kept
		h.outcome = binary
	default:
		h.outcome = searched
		s.scan(data, h)
	}
	if lent || cap(data) > keptBuffer {
		return buf // lent: not ours to read into
	}
	return data
}

// A Lender is an [Opener] whose ReadFile may return memory it only lends
// (a kept text, contents_linux.go), not buf or a new buffer: the caller
// reads it but never writes into it, so it does not read the next file
// into it either. A lent text is never binary (only texts are kept). A
// wrapper of an Opener forwards Lent.
type Lender interface {
	Lent(data []byte) bool // data is what ReadFile returned last
}

// Lent reports whether data is the kept text ReadFile lent last.
func (o *dirOpener) Lent(data []byte) bool {
	return len(data) > 0 && len(o.lent) > 0 && &data[0] == &o.lent[0]
}

// ReadFile reads the file rel through o, whole, into buf (grown as
// needed): through o's ReadFile if it is a [FileReader]. A file above
// limit is not read.
func ReadFile(o Opener, rel string, limit int64, buf []byte) ([]byte, error) {
	if r, ok := o.(FileReader); ok {
		return r.ReadFile(rel, limit, buf)
	}
	f, err := o.Open(rel)
	if err != nil {
		return buf, err
	}
	defer f.Close()
	return read(f, limit, buf)
}
