package grep

import (
	"context"
	"sync"
)

// collector commits per-file results, a batch at a time, in walk order and stops the search
// once Max matching lines (or files) are in.
type collector struct {
	req  *Request
	stop context.CancelFunc

	mu      sync.Mutex // guards all fields below
	pending map[int][]Hits
	next    int // the walk's place of the file to commit next
	res     Result
}

// add takes the results of the run of files that starts at the walk's
// first and commits every run that is now next in walk order.
func (c *collector) add(first int, hits []Hits) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.pending[first] = hits
	for {
		hits, ok := c.pending[c.next]
		if !ok {
			return
		}
		delete(c.pending, c.next)
		c.next += len(hits)
		for _, h := range hits {
			c.commit(h)
		}
	}
}

func (c *collector) commit(h Hits) {
	r := &c.res
	if r.Cut {
		return
	}
	switch h.outcome {
	case searched:
		r.Searched++
	case binary:
		r.Binary++
	case tooLarge:
		r.TooLarge++
	}
	if h.Matches == 0 {
		return
	}
	if c.req.Mode != Content {
		if len(r.Files) == c.req.Max {
			r.Cut = true
			c.stop()
			return
		}
		r.Matches += h.Matches
		r.Files = append(r.Files, h)
		return
	}
	left := c.req.Max - r.Matches
	if h.Matches > left { // a scan finds one more than Max when there is one
		r.Cut = true
		c.stop()
		if left == 0 {
			return
		}
		h = truncate(h, left, c.req.After)
	}
	r.Matches += h.Matches
	r.Files = append(r.Files, h)
}

// truncate keeps the first n matching lines of h and their after-context.
func truncate(h Hits, n, after int) Hits {
	seen, lastN := 0, 0
	for i, l := range h.Lines {
		if seen == n && (l.Match || l.N > lastN+after) {
			h.Lines = h.Lines[:i]
			break
		}
		if l.Match {
			seen++
			lastN = l.N
		}
	}
	h.Matches = min(h.Matches, n)
	return h
}

func (c *collector) result() *Result {
	c.mu.Lock()
	defer c.mu.Unlock()
	r := c.res
	return &r
}
