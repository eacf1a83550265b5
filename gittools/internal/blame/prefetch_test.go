package blame

import (
	"sync"
	"testing"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
)

// line returns the nodes of a first-parent line of n commits, newest first: commit i (times 1000-i) has
// parent i+1, and the last one names a parent outside the line.
func line(base byte, n int) []*node {
	hash := func(i int) plumbing.Hash { return plumbing.Hash{base, byte(i >> 8), byte(i)} }
	nodes := make([]*node, n)
	for i := range nodes {
		nodes[i] = &node{hash: hash(i), parents: []plumbing.Hash{hash(i + 1)}, time: int64(1000 - i)}
	}
	return nodes
}

func newTestPrefetcher(aheadAt int64) *prefetcher {
	p := &prefetcher{nodes: map[plumbing.Hash]*node{}, aheadAt: aheadAt}
	p.room = sync.NewCond(&p.mu)
	return p
}

func TestChainNext(t *testing.T) {
	main, topic := line(1, lead+2), line(2, 3)
	root := &node{hash: plumbing.Hash{3}}
	for _, tt := range []struct {
		name     string
		from     *node
		held     []*node // the nodes the chain reader holds
		restart  *node
		aheadAt  int64
		want     *node
		wantHeld int
	}{
		{name: "down its own chain", from: main[0], want: main[0]},
		{name: "past the commits it holds", from: main[0], held: main[1:4], want: main[3], wantHeld: 3},
		{name: "moved to a topic", from: main[0], held: main[1:4], restart: topic[0], want: topic[0], wantHeld: 3},
		{name: "moved, then past what it holds", from: main[5], restart: topic[0], held: topic[1:3], want: topic[2], wantHeld: 2},
		{name: "out of room drops the passed commits", from: main[lead+1], held: main[1 : lead+1], aheadAt: 1000 - 100,
			want: main[lead+1], wantHeld: lead - 99},
		{name: "stopped", from: root, want: nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := newTestPrefetcher(tt.aheadAt)
			if tt.aheadAt == 0 {
				p.aheadAt = 1000
			}
			for _, n := range tt.held {
				p.nodes[n.hash] = n
			}
			p.restart = tt.restart
			if tt.want == nil {
				p.closing = true
			}
			p.mu.Lock()
			got := p.chainNext(tt.from)
			p.mu.Unlock()
			if got != tt.want {
				t.Errorf("chainNext = %v, want %v", got, tt.want)
			}
			if len(p.nodes) != tt.wantHeld && tt.want != nil {
				t.Errorf("holds %d nodes after, want %d", len(p.nodes), tt.wantHeld)
			}
			if p.restart != nil {
				t.Errorf("restart %v still pending", p.restart)
			}
		})
	}
}

func TestChainNextWaitsForAMove(t *testing.T) {
	p := newTestPrefetcher(1000)
	dead := &node{hash: plumbing.Hash{9}} // no parents: a commit the chain reader could not read
	topic := line(2, 2)
	got := make(chan *node)
	go func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		got <- p.chainNext(dead)
	}()
	p.mu.Lock()
	p.restart = topic[0]
	p.mu.Unlock()
	p.room.Broadcast()
	select {
	case n := <-got:
		if n != topic[0] {
			t.Errorf("chainNext = %v, want the topic's head", n)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("chainNext did not return after the move")
	}
}
