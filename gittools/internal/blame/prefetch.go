package blame

import (
	"context"
	"errors"
	"sync"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/grove-mcp/grove/gittools/internal/commitgraph"
	"github.com/grove-mcp/grove/gittools/internal/packread"
	"github.com/grove-mcp/grove/gittools/internal/repo"
)

// A blame spends most of its time reading commits and the trees down to the file: every commit on the
// file's simplified history is read and its parents' trees compared, while only the few that changed the
// file are diffed. So, without a commit-graph's Bloom filters or a changed-paths index to skip that
// reading, two goroutines do it ahead of the walk, each through a pack reader of its own (the repository's
// go-git storage is not safe for concurrent use):
//
//   - the chain reader reads the commits of the first-parent chain (where a file's history mostly runs);
//   - the prefetcher follows the path the walk will take (a commit goes to the first parent with the same
//     blob, else to every parent that has the file) and finds, per commit, the parents' versions of the file.
//
// The walk waits for the commits the prefetcher has queued and diffs meanwhile; what the prefetcher does not
// queue (a rename, an object it cannot read, a stop) the walk reads itself. A bug or a failed read here ends
// prefetching, never the blame.

// errStopped ends a read the prefetcher no longer needs (or cannot use).
var errStopped = errors.New("prefetch stopped")

// lead bounds how far the read-ahead runs past the walk: the commits published and not yet taken, and the
// commits the chain reader read and the prefetcher has not used. A blame that ends after a few commits
// leaves its readers little work done for nothing.
const lead = 512

// prefetchLimit is the largest commit or tree the prefetcher inflates; larger ones are left to the walk.
const prefetchLimit = 4 << 20

// wakeEvery is how many commits the prefetcher publishes between wake-ups of a waiting walk: one wake-up
// per commit cost more than the walk saved.
const wakeEvery = 16

// ahead is what the prefetcher found for one commit: per parent, its node and the file at the same path
// there, up to the first parent with the same blob (the walk looks no further).
type ahead struct {
	time    int64 // the commit's
	parents []parentVersion
}

type prefetcher struct {
	ctx   context.Context
	packs *packread.Reader // the prefetcher's
	chain *packread.Reader // the chain reader's
	graph *commitgraph.Graph
	stop  chan struct{}
	wg    sync.WaitGroup

	mu       sync.Mutex         // guards the fields below
	ready    *sync.Cond         // the walk waits on it for a promised commit
	work     *sync.Cond         // the prefetcher waits on it for seeds
	room     *sync.Cond         // the prefetcher and the chain reader wait on it for the walk and the prefetcher to catch up
	walkTime int64              // the commit time the walk has reached
	blocked  bool               // the prefetcher waits for room: the walk must not wait for it
	promised map[originKey]bool // queued by the prefetcher: it will publish them or give up on them
	found    map[originKey]*ahead
	seeds    []aheadItem             // origins the walk found by a rename, to prefetch from
	nodes    map[plumbing.Hash]*node // read by the chain reader
	closing  bool
	done     bool // the prefetcher has stopped
}

// startPrefetch starts reading the history of blob at path from commit start.
func startPrefetch(ctx context.Context, rp *repo.Repo, g *commitgraph.Graph, start *node, path string, blob plumbing.Hash) *prefetcher {
	readers := rp.ReadAhead()
	p := &prefetcher{ctx: ctx, packs: readers[0], chain: readers[1], graph: g,
		stop: make(chan struct{}), promised: map[originKey]bool{}, found: map[originKey]*ahead{},
		nodes: map[plumbing.Hash]*node{}}
	p.ready, p.work, p.room = sync.NewCond(&p.mu), sync.NewCond(&p.mu), sync.NewCond(&p.mu)
	p.walkTime = start.time
	p.seed(start, path, blob)
	p.wg.Add(2)
	go p.readChain(start)
	go p.run()
	return p
}

// seed asks the prefetcher to read the history of blob at path from commit n on (the walk found it by a
// rename, which the prefetcher does not follow itself).
func (p *prefetcher) seed(n *node, path string, blob plumbing.Hash) {
	if p == nil {
		return
	}
	k := originKey{n.hash, path}
	p.mu.Lock()
	if !p.promised[k] && !p.done {
		p.promised[k] = true
		p.seeds = append(p.seeds, aheadItem{n: n, path: path, names: splitPath(path), blob: blob})
	}
	p.mu.Unlock()
	p.work.Signal()
}

// close stops both goroutines and waits for them; the readers stay open, the repository's (see
// repo.Repo.ReadAhead).
func (p *prefetcher) close() {
	if p == nil {
		return
	}
	close(p.stop)
	p.mu.Lock()
	p.closing = true
	p.mu.Unlock()
	p.work.Broadcast()
	p.room.Broadcast()
	p.wg.Wait()
}

// take returns what was prefetched for commit h at path, waiting for it if the prefetcher has queued it;
// nil when the walk must read it itself.
func (p *prefetcher) take(c *node, path string) *ahead {
	if p == nil {
		return nil
	}
	k := originKey{c.hash, path}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.walkTime = c.time
	for p.promised[k] && p.found[k] == nil && !p.done && !p.blocked {
		p.ready.Wait()
	}
	a := p.found[k]
	delete(p.found, k)
	delete(p.promised, k)
	if a != nil {
		p.room.Broadcast()
	}
	return a
}

// waitRoom waits, with p.mu held, until fewer than lead commits wait for the walk; commits newer than
// the walk's, which it has passed, are dropped first. It reports false when the prefetcher is closing.
func (p *prefetcher) waitRoom() bool {
	for len(p.found) >= lead && !p.closing {
		for k, a := range p.found {
			if a.time > p.walkTime {
				delete(p.found, k)
				delete(p.promised, k)
			}
		}
		if len(p.found) < lead {
			break
		}
		p.blocked = true
		p.ready.Broadcast()
		p.room.Wait()
	}
	p.blocked = false
	return !p.closing
}

// finish marks the prefetcher stopped and wakes the walk.
func (p *prefetcher) finish() {
	p.mu.Lock()
	p.done = true
	p.mu.Unlock()
	p.ready.Broadcast()
}

// aheadItem is a commit the prefetcher will read the parents of, with its version of the file.
type aheadItem struct {
	n     *node
	path  string
	names []string
	blob  plumbing.Hash
	chain []plumbing.Hash
	seq   int
}

func (it aheadItem) CommitTime() (int64, int) { return it.n.time, it.seq }

func (p *prefetcher) run() {
	defer p.wg.Done()
	defer p.finish()
	defer func() { _ = recover() }() // a bug here ends prefetching; the walk reads for itself
	var q repo.ByCommitTime[aheadItem]
	for seq, n := 0, 0; ; n++ {
		if p.ctx.Err() != nil || p.stopped() {
			return
		}
		p.mu.Lock()
		for q.Len() == 0 && len(p.seeds) == 0 && !p.closing {
			p.work.Wait()
		}
		for _, it := range p.seeds {
			it.seq, seq = seq, seq+1
			q.Put(it)
		}
		p.seeds = p.seeds[:0]
		p.mu.Unlock()
		if q.Len() == 0 {
			return // closing
		}
		it := q.Take()
		k := originKey{it.n.hash, it.path}
		a, ok := p.parents(it)
		p.mu.Lock()
		if !ok {
			delete(p.promised, k)
			p.mu.Unlock()
			p.ready.Broadcast()
			continue
		}
		if !p.waitRoom() {
			p.mu.Unlock()
			return
		}
		a.time = it.n.time
		p.found[k] = a
		last := a.parents[len(a.parents)-1]
		same := last.found && last.blob == it.blob
		for _, pv := range a.parents {
			pk := originKey{pv.c.hash, it.path}
			if !pv.found || same && pv.c != last.c || p.promised[pk] {
				continue
			}
			p.promised[pk] = true
			q.Put(aheadItem{n: pv.c, path: it.path, names: it.names, blob: pv.blob, chain: pv.chain, seq: seq})
			seq++
		}
		p.mu.Unlock()
		if n%wakeEvery == 0 || q.Len() == 0 {
			p.ready.Broadcast()
		}
	}
}

func (p *prefetcher) stopped() bool {
	select {
	case <-p.stop:
		return true
	default:
		return false
	}
}

// parents reads it's parents and the file in each, up to the first with the same blob; false when
// something could not be read here.
func (p *prefetcher) parents(it aheadItem) (*ahead, bool) {
	a := &ahead{}
	for _, h := range it.n.parents {
		pn, err := p.node(h)
		if err != nil {
			return nil, false
		}
		blob, chain, found, err := lookupIn(p.readTree, pn.tree, it.names, it.chain, it.blob)
		if err != nil {
			return nil, false
		}
		a.parents = append(a.parents, parentVersion{c: pn, path: it.path, blob: blob, chain: chain, found: found})
		if found && blob == it.blob {
			break
		}
	}
	return a, len(a.parents) > 0
}

// node returns commit h: as the chain reader read it, or read here.
func (p *prefetcher) node(h plumbing.Hash) (*node, error) {
	p.mu.Lock()
	n := p.nodes[h]
	if n != nil {
		delete(p.nodes, h)
		p.room.Broadcast()
	}
	p.mu.Unlock()
	if n != nil {
		return n, nil
	}
	return readNode(p.graph, func(h plumbing.Hash) ([]byte, error) { return read(p.packs, p.stop, packread.Commit, h) }, h)
}

// readChain reads the first-parent chain from start's parent on, at most lead commits ahead of the prefetcher.
func (p *prefetcher) readChain(start *node) {
	defer p.wg.Done()
	defer func() { _ = recover() }()
	readCommit := func(h plumbing.Hash) ([]byte, error) { return read(p.chain, p.stop, packread.Commit, h) }
	for n := start; len(n.parents) > 0; {
		next, err := readNode(p.graph, readCommit, n.parents[0])
		if err != nil {
			return
		}
		p.mu.Lock()
		for len(p.nodes) >= lead && !p.closing && !p.done {
			p.room.Wait()
		}
		stop := p.closing || p.done
		if !stop {
			p.nodes[next.hash] = next
		}
		p.mu.Unlock()
		if stop {
			return
		}
		n = next
	}
}

func (p *prefetcher) readTree(h plumbing.Hash) ([]byte, error) {
	return read(p.packs, p.stop, packread.Tree, h)
}

// read reads object h of type t from packs, unless the prefetcher is stopping.
func read(packs *packread.Reader, stop chan struct{}, t packread.Type, h plumbing.Hash) ([]byte, error) {
	select {
	case <-stop:
		return nil, errStopped
	default:
	}
	typ, data, err := packs.Read(h, func(packread.Type) int64 { return prefetchLimit })
	if err == nil && typ != t {
		err = errStopped
	}
	return data, err
}
