package ignore

import (
	"context"
	"io/fs"
	"os"
	"sync"
	"sync/atomic"

	"github.com/grove-mcp/grove/internal/panics"
)

// WalkParallel is [Matcher.Walk] with subdirectories walked on up to
// workers goroutines besides the caller's: it visits the same entries with
// the same rules, but fn may run concurrently with itself, and only the
// entries of one directory come in order (each directory is walked by one
// goroutine, its subdirectories possibly by others). fs.SkipDir, fs.SkipAll,
// errors and ctx behave as in Walk; after the first error (or SkipAll) the
// other goroutines stop at their next directory, and WalkParallel returns
// once all of them have. A panic on any of the goroutines, fn's included,
// ends the walk the same way, with a [*panics.Error]. It suits callers that
// sort or aggregate the result, like git status, where listing the tree is
// most of the work.
func (m *Matcher) WalkParallel(ctx context.Context, workers int, fn func(rel string, d fs.DirEntry) error) error {
	return m.walk(ctx, fn, max(workers, 0))
}

// parallel is the shared state of a parallel walk.
type parallel struct {
	sem    chan struct{} // a token per extra goroutine running
	wg     sync.WaitGroup
	cancel context.CancelFunc // stops the others after the first error

	mu    sync.Mutex // guards first
	first error
}

// descend walks subdirectory rel of node, reachable as name from self: on
// another goroutine if the walk is parallel and a worker is free, else
// right away.
func (d *dirWalk) descend(node *dirNode, self *sharedRoot, rel, name string) error {
	if p := d.par; p != nil {
		select {
		case p.sem <- struct{}{}:
			self.acquire()
			p.wg.Go(func() {
				defer func() {
					self.release()
					<-p.sem
				}()
				if err := d.subCaught(node, self.r, rel, name); err != nil {
					p.fail(err)
				}
			})
			return nil
		default:
		}
	}
	return d.sub(node, self.r, rel, name)
}

// subCaught is sub on a worker goroutine, where a panic (of fn or of ours)
// becomes the walk's error instead of ending the process.
func (d *dirWalk) subCaught(node *dirNode, parent *os.Root, rel, name string) (err error) {
	defer panics.Catch(&err)
	return d.sub(node, parent, rel, name)
}

// treeCaught is tree on the caller's goroutine of a parallel walk: a panic
// there becomes an error too, so that finish still stops and joins the
// workers before the walk returns.
func (w *walker) treeCaught(m *Matcher, root *os.Root, name string, entries []fs.DirEntry) (err error) {
	defer panics.Catch(&err)
	return w.tree(m, root, name, entries)
}

// fail records err if it is the walk's first and stops the other goroutines.
func (p *parallel) fail(err error) {
	p.mu.Lock()
	if p.first == nil {
		p.first = err
	}
	p.mu.Unlock()
	p.cancel()
}

// finish returns the walk's result: err, the caller's, if the walk was not
// parallel; else the first error of any goroutine, once all have stopped.
func (w *walker) finish(err error) error {
	p := w.par
	if p == nil {
		return err
	}
	if err != nil {
		p.fail(err)
	}
	p.wg.Wait()
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.first
}

// sharedRoot is a directory handle closed when its last user releases it:
// the walk of a directory and those of subdirectories it handed to other
// goroutines, which open their directories through it.
type sharedRoot struct {
	r    *os.Root
	refs atomic.Int32
}

func share(r *os.Root) *sharedRoot {
	s := &sharedRoot{r: r}
	s.refs.Store(1)
	return s
}

func (s *sharedRoot) acquire() { s.refs.Add(1) }

// release drops a reference; nil is a no-op.
func (s *sharedRoot) release() {
	if s != nil && s.refs.Add(-1) == 0 {
		s.r.Close()
	}
}
