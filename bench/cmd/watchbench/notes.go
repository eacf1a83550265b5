package main

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// notes records every change notification the client receives, with the
// time it arrived, and the subscriptions the server acknowledged (modern era).
type notes struct {
	updated chan string // URI of each notifications/resources/updated, as it arrives

	mu          sync.Mutex // guards the fields below
	times       map[string][]time.Time
	listChanged []time.Time
	acked       map[string]bool
	ackCh       chan struct{}
}

func newNotes() *notes {
	return &notes{
		updated: make(chan string, 1<<16),
		times:   make(map[string][]time.Time),
		acked:   make(map[string]bool),
		ackCh:   make(chan struct{}, 1),
	}
}

// options wires the notes into a client.
func (n *notes) options() *mcp.ClientOptions {
	return &mcp.ClientOptions{
		ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
			now := time.Now()
			n.mu.Lock()
			n.times[req.Params.URI] = append(n.times[req.Params.URI], now)
			n.mu.Unlock()
			select {
			case n.updated <- req.Params.URI:
			default: // a burst; times has it
			}
		},
		ResourceListChangedHandler: func(context.Context, *mcp.ResourceListChangedRequest) {
			n.mu.Lock()
			n.listChanged = append(n.listChanged, time.Now())
			n.mu.Unlock()
		},
	}
}

// middleware watches for notifications/subscriptions/acknowledged, which the
// SDK's client swallows, to know when a modern subscription is in force.
func (n *notes) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method == "notifications/subscriptions/acknowledged" {
			if p, ok := req.GetParams().(*mcp.SubscriptionsAcknowledgedParams); ok && p.Notifications.ResourceSubscriptions != nil {
				n.mu.Lock()
				for _, u := range p.Notifications.ResourceSubscriptions {
					n.acked[u] = true
				}
				n.mu.Unlock()
				select {
				case n.ackCh <- struct{}{}:
				default:
				}
			}
		}
		return next(ctx, method, req)
	}
}

// waitAcked waits until every uri is acknowledged or the timeout passes.
func (n *notes) waitAcked(uris []string, timeout time.Duration) bool {
	deadline := time.After(timeout)
	for {
		n.mu.Lock()
		all := true
		for _, u := range uris {
			if !n.acked[u] {
				all = false
				break
			}
		}
		n.mu.Unlock()
		if all {
			return true
		}
		select {
		case <-n.ackCh:
		case <-deadline:
			return false
		}
	}
}

// quiet polls until no notification has arrived for gap (counting from
// since when there was none yet), or limit passes. Polling is part of the
// measurement's pacing, not synchronisation.
func (n *notes) quiet(since time.Time, gap, limit time.Duration) {
	end := time.Now().Add(limit)
	for time.Now().Before(end) {
		last := n.last()
		if last.Before(since) {
			last = since
		}
		if time.Since(last) >= gap {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func (n *notes) last() time.Time {
	n.mu.Lock()
	defer n.mu.Unlock()
	var last time.Time
	for _, ts := range n.times {
		if len(ts) > 0 && ts[len(ts)-1].After(last) {
			last = ts[len(ts)-1]
		}
	}
	if k := len(n.listChanged); k > 0 && n.listChanged[k-1].After(last) {
		last = n.listChanged[k-1]
	}
	return last
}

// updatesOf returns a copy of the arrival times for uri.
func (n *notes) updatesOf(uri string) []time.Time {
	n.mu.Lock()
	defer n.mu.Unlock()
	return slices.Clone(n.times[uri])
}

// listChangedSince counts list_changed notifications that arrived after t.
func (n *notes) listChangedSince(t time.Time) int {
	n.mu.Lock()
	defer n.mu.Unlock()
	c := 0
	for _, x := range n.listChanged {
		if x.After(t) {
			c++
		}
	}
	return c
}
