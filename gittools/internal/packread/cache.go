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

const (
	// entryOverhead is what an entry costs besides its data: its map slot and ring slot.
	entryOverhead = 64
	// maxEntries bounds the entries however small they are.
	maxEntries = 1 << 16
)

// cache holds recently resolved objects, at most max bytes, in a ring in the order they were added: the
// oldest go first (a history walk reads in order and needs the recent bases). The map only ever grows to
// the ring's size, so a long walk does not keep rebuilding it, and no entry costs an allocation of its
// own beyond its data.
type cache struct {
	max, used int
	ring      []slot // oldest at ring[start], len(ring) grows up to maxEntries, then wraps
	start, n  int
	byKey     map[key]int32 // index into ring
}

type slot struct {
	k key
	e entry
}

func newCache(max int) cache { return cache{max: max} }

func (c *cache) get(k key) (entry, bool) {
	i, ok := c.byKey[k]
	if !ok {
		return entry{}, false
	}
	return c.ring[i].e, true
}

func (c *cache) put(k key, typ Type, data []byte) {
	size := len(data) + entryOverhead
	if size > c.max/4 {
		return
	}
	if c.byKey == nil {
		c.byKey = make(map[key]int32, 1024)
	}
	if _, ok := c.byKey[k]; ok {
		return
	}
	for c.n > 0 && (c.used+size > c.max || c.n == maxEntries) {
		c.evict()
	}
	if c.n == len(c.ring) && len(c.ring) < maxEntries {
		c.grow()
	}
	i := (c.start + c.n) % len(c.ring)
	c.ring[i] = slot{k: k, e: entry{typ: typ, data: data}}
	c.byKey[k] = int32(i)
	c.n++
	c.used += size
}

// evict drops the oldest entry.
func (c *cache) evict() {
	s := &c.ring[c.start]
	delete(c.byKey, s.k)
	c.used -= len(s.e.data) + entryOverhead
	*s = slot{}
	c.start = (c.start + 1) % len(c.ring)
	c.n--
}

// grow doubles the ring (it is full), keeping the order and renumbering the map.
func (c *cache) grow() {
	size := min(max(2*len(c.ring), 1024), maxEntries)
	ring := make([]slot, size)
	for j := range c.n {
		ring[j] = c.ring[(c.start+j)%len(c.ring)]
		c.byKey[ring[j].k] = int32(j)
	}
	c.ring, c.start = ring, 0
}
