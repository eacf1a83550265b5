package packread

import "container/list"

// key names a resolved object by its pack and offset.
type key struct {
	pack int
	off  int64
}

type entry struct {
	k    key
	typ  Type
	data []byte
}

// cache holds recently resolved objects up to max bytes, dropping the least recently used.
type cache struct {
	max, used int
	lru       *list.List // of *entry, most recent first
	byKey     map[key]*list.Element
}

func newCache(max int) cache {
	return cache{max: max, lru: list.New(), byKey: map[key]*list.Element{}}
}

func (c *cache) get(k key) (*entry, bool) {
	el, ok := c.byKey[k]
	if !ok {
		return nil, false
	}
	c.lru.MoveToFront(el)
	return el.Value.(*entry), true
}

func (c *cache) put(k key, typ Type, data []byte) {
	if len(data) > c.max/4 {
		return
	}
	if el, ok := c.byKey[k]; ok {
		c.lru.MoveToFront(el)
		return
	}
	c.byKey[k] = c.lru.PushFront(&entry{k: k, typ: typ, data: data})
	c.used += len(data)
	for c.used > c.max {
		el := c.lru.Back()
		e := el.Value.(*entry)
		c.lru.Remove(el)
		delete(c.byKey, e.k)
		c.used -= len(e.data)
	}
}
