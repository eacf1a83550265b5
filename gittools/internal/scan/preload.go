package scan

import (
	"context"
	"errors"
	"sync"

	"github.com/grove-mcp/grove/gittools/internal/gitfmt"
	"github.com/grove-mcp/grove/gittools/internal/repo"
	"github.com/grove-mcp/grove/internal/panics"
)

// Preload proves index entries clean from their stat data in the background, as git's core.preloadIndex
// does: the entries are split into scanWorkers contiguous chunks, each lstat-ed in index order through
// fastStat on a goroutine of its own. A status starts it as soon as the index is read, so that the lstat
// of every tracked file (the larger part of a full scan) runs beside the rest: the branch line, HEAD
// against the index, the ignore rules and the untracked walk, which then only lists directories. The
// caller must Wait before it lets go of the repository's lock.
type Preload struct {
	idx   *gitfmt.Index
	clean []bool // clean[i]: entry i proven clean; written by the workers until wg is done
	wg    sync.WaitGroup
	errs  []error
}

// MinPreload is the fewest entries worth preloading: below it the goroutines cost more than they save (a
// variable so tests can lower it).
var MinPreload = 1024

// StartPreload starts preloading idx's entries; nil when there is nothing to gain (few entries, or no
// fastStat on this system), and then the untracked walk lstats the tracked files it meets itself.
func StartPreload(rp *repo.Repo, ctx context.Context, idx *gitfmt.Index) *Preload {
	n := len(idx.Entries)
	if n < MinPreload || !UseFastStat || !fastStatWorks {
		return nil
	}
	p := &Preload{idx: idx, clean: make([]bool, n), errs: make([]error, scanWorkers)}
	for w := range scanWorkers {
		a, b := n*w/scanWorkers, n*(w+1)/scanWorkers
		p.wg.Go(func() {
			defer panics.Catch(&p.errs[w]) // the request gets the panic as its error, the process goes on
			p.errs[w] = p.chunk(rp, ctx, a, b)
		})
	}
	return p
}

// chunk proves entries [a, b) clean where it can.
func (p *Preload) chunk(rp *repo.Repo, ctx context.Context, a, b int) error {
	fast := newFastStat(rp)
	if fast == nil {
		return nil // the worktree cannot be opened: the scan finds out and says so
	}
	defer fast.close()
	es := p.idx.Entries
	for i := a; i < b; i++ {
		if (i-a)%256 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		if worktreeEntry(p.idx, 0, i) && fast.clean(&es[i], p.idx) {
			p.clean[i] = true
		}
	}
	return nil
}

// Wait waits for the workers and returns which entries they proved clean (nil for a nil Preload).
func (p *Preload) Wait() ([]bool, error) {
	if p == nil {
		return nil, nil
	}
	p.wg.Wait()
	return p.clean, errors.Join(p.errs...)
}

// of returns p if it was started for idx, else nil: a preload of another index proves nothing about this one.
func (p *Preload) of(idx *gitfmt.Index) *Preload {
	if p == nil || p.idx != idx {
		return nil
	}
	return p
}
