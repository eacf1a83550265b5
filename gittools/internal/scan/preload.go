package scan

import (
	"cmp"
	"context"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/grove-mcp/grove/gittools/internal/gitfmt"
	"github.com/grove-mcp/grove/gittools/internal/repo"
	"github.com/grove-mcp/grove/internal/panics"
)

// Preload proves index entries clean from their stat data in the background, as git's core.preloadIndex
// does: a status starts it as soon as the index is read, so that the lstat of every tracked file (the
// larger part of a full scan) runs beside the rest: the branch line, HEAD against the index, the ignore
// rules and the untracked walk, which then only lists directories. The entries go in chunks, in index
// order (each chunk's directories opened once, by fastStat), to preloadWorkers goroutines and, once it
// waits, to the caller's. The caller must Wait before it lets go of the repository's lock.
type Preload struct {
	rp    *repo.Repo
	ctx   context.Context
	idx   *gitfmt.Index
	clean []bool       // clean[i]: entry i proven clean; each chunk written by whoever took it
	next  atomic.Int64 // the first entry of the next chunk to take
	wg    sync.WaitGroup

	mu  sync.Mutex // guards err
	err error      // the first error of a worker
}

// MinPreload is the fewest entries worth preloading: below it the goroutines cost more than they save (a
// variable so tests can lower it).
var MinPreload = 1024

// PreloadChunk is how many entries a worker takes at a time: enough that each chunk's directories are
// opened once, few enough that the last chunks spread over the workers (a variable so tests can lower it).
var PreloadChunk = 512

// preloadWorkers is how many goroutines preload: half the processors, the other half going to the status's
// own path (the branch line, HEAD against the index, the walk), which joins them when it waits.
var preloadWorkers = max(runtime.GOMAXPROCS(0)/2, 1)

// StartPreload starts preloading idx's entries; nil when there is nothing to gain (few entries, or no
// fastStat on this system), and then the untracked walk lstats the tracked files it meets itself.
// Cancelling ctx stops it.
func StartPreload(rp *repo.Repo, ctx context.Context, idx *gitfmt.Index) *Preload {
	if len(idx.Entries) < MinPreload || !UseFastStat || !fastStatWorks {
		return nil
	}
	p := &Preload{rp: rp, ctx: ctx, idx: idx, clean: make([]bool, len(idx.Entries))}
	for range preloadWorkers {
		p.wg.Go(p.work)
	}
	return p
}

// work takes chunks until none is left.
func (p *Preload) work() {
	var err error
	defer func() {
		if err != nil {
			p.mu.Lock()
			p.err = cmp.Or(p.err, err)
			p.mu.Unlock()
		}
	}()
	defer panics.Catch(&err) // the request gets the panic as its error, the process goes on
	n := len(p.idx.Entries)
	if int(p.next.Load()) >= n {
		return
	}
	fast := newFastStat(p.rp)
	if fast == nil {
		return // the worktree cannot be opened: the scan finds out and says so
	}
	defer fast.close()
	es := p.idx.Entries
	for {
		a := int(p.next.Add(int64(PreloadChunk))) - PreloadChunk
		if a >= n {
			return
		}
		if err = p.ctx.Err(); err != nil {
			return
		}
		for i := a; i < min(a+PreloadChunk, n); i++ {
			if worktreeEntry(p.idx, 0, i) && fast.clean(&es[i], p.idx) {
				p.clean[i] = true
			}
		}
	}
}

// Wait takes the chunks no worker has taken yet, waits for the workers and returns which entries were
// proven clean (nil for a nil Preload).
func (p *Preload) Wait() ([]bool, error) {
	if p == nil {
		return nil, nil
	}
	p.work()
	p.wg.Wait()
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.clean, p.err
}

// of returns p if it was started for idx, else nil: a preload of another index proves nothing about this one.
func (p *Preload) of(idx *gitfmt.Index) *Preload {
	if p == nil || p.idx != idx {
		return nil
	}
	return p
}
