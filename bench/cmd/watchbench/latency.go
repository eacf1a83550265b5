package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/grove-mcp/grove/bench/internal/benchutil"
	"github.com/grove-mcp/grove/roots"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// settleAfterNote is how long the latency loop waits after each notification
// before the next write, so a late second notification for the same write
// (a batch split by the debounce) is counted as an extra, not as the answer
// to the next write. Twice the server's 50 ms debounce.
const settleAfterNote = 100 * time.Millisecond

// noteTimeout is how long a write may go unnotified before it counts as lost.
const noteTimeout = 5 * time.Second

type latencyResult struct {
	lat    []time.Duration
	lost   int // writes with no notification within noteTimeout
	extras int // notifications beyond one per write
}

// start spawns grove on dir in the given era with the notes wired in.
func start(ctx context.Context, bin, dir, era string, n *notes) (*benchutil.Proc, error) {
	return benchutil.Start(ctx, benchutil.Spec{
		Argv: []string{bin, "--root", dir}, Protocol: era,
		Options: n.options(), Middleware: []mcp.Middleware{n.middleware},
	})
}

// subscribe subscribes to every uri; in the modern era it also waits for the
// server's acknowledgements, since Subscribe there only opens the stream.
func subscribe(ctx context.Context, p *benchutil.Proc, n *notes, uris []string) error {
	for _, u := range uris {
		if err := p.Session.Subscribe(ctx, &mcp.SubscribeParams{URI: u}); err != nil {
			return fmt.Errorf("subscribing to %s: %w", u, err)
		}
	}
	if p.Negotiated() >= benchutil.Modern && !n.waitAcked(uris, 30*time.Second) {
		return fmt.Errorf("not every subscriptions/listen of %d was acknowledged in 30 s", len(uris))
	}
	return nil
}

// measureLatency writes one subscribed file `writes` times, waiting for each
// notification before the next write.
func measureLatency(ctx context.Context, bin, base, era string, writes int) (latencyResult, error) {
	var r latencyResult
	dir := filepath.Join(base, "latency-"+era)
	file := filepath.Join(dir, "watched.txt")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return r, err
	}
	if err := os.WriteFile(file, []byte("0\n"), 0o644); err != nil {
		return r, err
	}
	n := newNotes()
	p, err := start(ctx, bin, dir, era, n)
	if err != nil {
		return r, err
	}
	defer p.Close()
	uri := roots.URI(file)
	if err := subscribe(ctx, p, n, []string{uri}); err != nil {
		return r, err
	}
	for i := range writes {
		drain(n.updated)
		t0 := time.Now()
		if err := os.WriteFile(file, fmt.Appendf(nil, "%d\n", i+1), 0o644); err != nil {
			return r, err
		}
		if !waitFor(n.updated, uri, noteTimeout) {
			r.lost++
			continue
		}
		r.lat = append(r.lat, time.Since(t0))
		time.Sleep(settleAfterNote)
		r.extras += drain(n.updated)
	}
	return r, nil
}

func waitFor(ch <-chan string, uri string, timeout time.Duration) bool {
	deadline := time.After(timeout)
	for {
		select {
		case u := <-ch:
			if u == uri {
				return true
			}
		case <-deadline:
			return false
		}
	}
}

func drain(ch <-chan string) int {
	c := 0
	for {
		select {
		case <-ch:
			c++
		default:
			return c
		}
	}
}
