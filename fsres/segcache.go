package fsres

import (
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/grove-mcp/grove/internal/panics"
)

// Bounds of the segments kept for resources/list: the bytes they hold in all,
// how many, and how long one is kept unused (a client paging through a tree
// asks for the next page at once; one that stopped will not be back soon).
const (
	maxSegmentsBytes = 32 << 20
	maxSegments      = 64
	segmentIdle      = 2 * time.Minute
)

// segments holds the segments of recent resources/list walks, the least
// recently used first. The zero value is empty and ready.
type segments struct {
	mu    sync.Mutex // guards all fields below
	list  []*segmentUse
	bytes int
	timer *time.Timer // drops idle segments; nil when there are none
	now   func() time.Time
	log   *slog.Logger // where a panic in sweep is reported
	added int          // segments added so far: how many walks ran
}

type segmentUse struct {
	*segment
	used time.Time
}

func (c *segments) clock() time.Time {
	if c.now != nil {
		return c.now()
	}
	return time.Now()
}

// find returns a segment of key that covers the entries after last, and marks
// it used.
func (c *segments) find(key segKey, last string) *segment {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i := len(c.list) - 1; i >= 0; i-- {
		u := c.list[i]
		if u.key == key && u.covers(last) {
			u.used = c.clock()
			c.list = append(slices.Delete(c.list, i, i+1), u)
			return u.segment
		}
	}
	return nil
}

// add keeps s, dropping the least recently used segments beyond the bounds;
// log reports a panic while dropping idle ones.
func (c *segments) add(s *segment, log *slog.Logger) {
	if s.size > maxSegmentsBytes {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.log = log
	for len(c.list) > 0 && (c.bytes+s.size > maxSegmentsBytes || len(c.list) >= maxSegments) {
		c.bytes -= c.list[0].size
		c.list = slices.Delete(c.list, 0, 1)
	}
	c.list = append(c.list, &segmentUse{segment: s, used: c.clock()})
	c.bytes += s.size
	c.added++
	if c.timer == nil {
		c.timer = time.AfterFunc(segmentIdle, c.sweep)
	}
}

// drop forgets s.
func (c *segments) drop(s *segment) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.dropWhere(func(u *segmentUse) bool { return u.segment == s })
}

// dropUnder forgets the segments of roots that hold dir or lie inside it.
func (c *segments) dropUnder(dir string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.dropWhere(func(u *segmentUse) bool { return within(dir, u.path) || within(u.path, dir) })
}

func (c *segments) dropWhere(drop func(*segmentUse) bool) {
	c.list = slices.DeleteFunc(c.list, func(u *segmentUse) bool {
		if drop(u) {
			c.bytes -= u.size
			return true
		}
		return false
	})
}

// sweep drops the segments unused for segmentIdle, and comes back while any
// are left.
func (c *segments) sweep() {
	c.mu.Lock()
	defer panics.Log(c.log, "dropping idle resources/list segments")
	defer c.mu.Unlock()
	c.timer = nil
	now := c.clock()
	c.dropWhere(func(u *segmentUse) bool { return now.Sub(u.used) >= segmentIdle })
	if len(c.list) > 0 {
		c.timer = time.AfterFunc(segmentIdle, c.sweep)
	}
}
