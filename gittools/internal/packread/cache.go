package packread

// key names a resolved object by its pack and offset.
type key struct {
	pack int
	off  int64
}

type entry struct {
	typ  Type
	data []byte
}

// entryOverhead is what an entry costs besides its data: its map slot and slice header.
const entryOverhead = 64

// cache holds recently resolved objects in two generations of at most max/2 bytes each: new entries go
// to cur, a hit in old moves to cur, and when cur is full old is dropped and cur becomes old. No list and
// no allocation per entry, and the maps are sized from the last generation, so they seldom grow.
type cache struct {
	max, curBytes int
	cur, old      map[key]entry
}

func newCache(max int) cache { return cache{max: max} }

func (c *cache) get(k key) (entry, bool) {
	if e, ok := c.cur[k]; ok {
		return e, true
	}
	e, ok := c.old[k]
	if ok {
		c.add(k, e)
	}
	return e, ok
}

func (c *cache) put(k key, typ Type, data []byte) {
	if len(data) > c.max/4 {
		return
	}
	if _, ok := c.cur[k]; ok {
		return
	}
	c.add(k, entry{typ: typ, data: data})
}

func (c *cache) add(k key, e entry) {
	size := len(e.data) + entryOverhead
	if c.cur == nil || c.curBytes+size > c.max/2 {
		c.old = c.cur
		c.cur = make(map[key]entry, max(len(c.old), 1024))
		c.curBytes = 0
	}
	c.cur[k] = e
	c.curBytes += size
}
