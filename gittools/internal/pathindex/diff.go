package pathindex

import (
	"bytes"
	"errors"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/grove-mcp/grove/gittools/internal/gitfmt"
	"github.com/grove-mcp/grove/gittools/internal/repo"
)

// rawEntry is one entry of a raw tree; name points into the tree's bytes.
type rawEntry struct {
	name []byte
	mode uint32
	hash plumbing.Hash
}

const modeDir = 0o40000

func (e rawEntry) dir() bool { return e.mode == modeDir }

// tree is a parsed tree; sorted reports git's order (names compared as if directories ended in '/'),
// strictly increasing, which the merge in diffSorted needs.
type tree struct {
	entries []rawEntry
	sorted  bool
}

// treeCache holds the trees a build parsed recently: a commit's trees are its parent's, but for the few it
// changes, and the build visits parents right after children.
type treeCache map[plumbing.Hash]*tree

// maxCachedTrees bounds the cache, which is simply emptied when full.
const maxCachedTrees = 1024

type differ struct {
	rp    *repo.Repo
	cache treeCache
	out   []string
}

var (
	errTooMany = errors.New("too many changed paths")
)

// trees records every path under dir whose entry differs between trees a and b (either may be zero).
func (d *differ) trees(a, b plumbing.Hash, dir string) error {
	if a == b {
		return nil
	}
	ta, err := d.read(a)
	if err != nil {
		return err
	}
	tb, err := d.read(b)
	if err != nil {
		return err
	}
	if ta.sorted && tb.sorted {
		return d.merge(ta.entries, tb.entries, dir)
	}
	return d.byName(ta.entries, tb.entries, dir)
}

// merge walks two sorted trees side by side.
func (d *differ) merge(ea, eb []rawEntry, dir string) error {
	for len(ea) > 0 || len(eb) > 0 {
		var c int
		switch {
		case len(ea) == 0:
			c = 1
		case len(eb) == 0:
			c = -1
		default:
			c = compare(ea[0], eb[0])
		}
		var err error
		switch {
		case c < 0:
			err = d.entry(&ea[0], nil, dir)
			ea = ea[1:]
		case c > 0:
			err = d.entry(nil, &eb[0], dir)
			eb = eb[1:]
		default:
			if ea[0].mode != eb[0].mode || ea[0].hash != eb[0].hash {
				err = d.entry(&ea[0], &eb[0], dir)
			}
			ea, eb = ea[1:], eb[1:]
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// byName pairs entries by name, the first of a name winning as in a path lookup: for trees git would never
// write (unsorted, or a name twice).
func (d *differ) byName(ea, eb []rawEntry, dir string) error {
	first := make(map[string]int, len(ea))
	for i, e := range ea {
		if _, dup := first[string(e.name)]; !dup {
			first[string(e.name)] = i
		}
	}
	seen := make(map[string]bool, len(eb))
	for i := range eb {
		n := string(eb[i].name)
		if seen[n] {
			continue
		}
		seen[n] = true
		var o *rawEntry
		if j, ok := first[n]; ok {
			if ea[j].mode == eb[i].mode && ea[j].hash == eb[i].hash {
				continue
			}
			o = &ea[j]
		}
		if err := d.entry(o, &eb[i], dir); err != nil {
			return err
		}
	}
	for i := range ea {
		if n := string(ea[i].name); !seen[n] {
			seen[n] = true
			if err := d.entry(&ea[i], nil, dir); err != nil {
				return err
			}
		}
	}
	return nil
}

// compare orders entries as git sorts a tree: by name, a directory's name followed by '/'.
func compare(a, b rawEntry) int {
	n := min(len(a.name), len(b.name))
	if c := bytes.Compare(a.name[:n], b.name[:n]); c != 0 {
		return c
	}
	ca, cb := nextByte(a, n), nextByte(b, n)
	switch {
	case ca < cb:
		return -1
	case ca > cb:
		return 1
	}
	return 0
}

// nextByte is the byte of e's sort key at i: past its name, '/' for a directory and 0 (the end) otherwise.
func nextByte(e rawEntry, i int) int {
	switch {
	case i < len(e.name):
		return int(e.name[i])
	case i == len(e.name) && e.dir():
		return '/'
	}
	return 0
}

// entry records a differing entry (old and/or new, nil when absent) and descends into the sides that are trees.
func (d *differ) entry(o, n *rawEntry, dir string) error {
	e := n
	if e == nil {
		e = o
	}
	if len(d.out) == maxChanged || len(dir)+1+len(e.name) > gitfmt.MaxRepoPath {
		return errTooMany
	}
	var p string
	if dir == "" {
		p = string(e.name)
	} else {
		var sb strings.Builder
		sb.Grow(len(dir) + 1 + len(e.name))
		sb.WriteString(dir)
		sb.WriteByte('/')
		sb.Write(e.name)
		p = sb.String()
	}
	d.out = append(d.out, p)
	var ta, tb plumbing.Hash
	if o != nil && o.dir() {
		ta = o.hash
	}
	if n != nil && n.dir() {
		tb = n.hash
	}
	if ta.IsZero() && tb.IsZero() {
		return nil
	}
	return d.trees(ta, tb, p)
}

// read parses tree h (zero: the empty tree), from the cache or its raw bytes.
func (d *differ) read(h plumbing.Hash) (*tree, error) {
	if h.IsZero() {
		return &tree{sorted: true}, nil
	}
	if t, ok := d.cache[h]; ok {
		return t, nil
	}
	data, err := d.rp.RawObject(plumbing.TreeObject, h) // at most the store's object limit; read-only
	if err != nil {
		return nil, err
	}
	t, err := parseTree(data)
	if err != nil {
		return nil, err
	}
	if len(d.cache) >= maxCachedTrees {
		clear(d.cache)
	}
	d.cache[h] = t
	return t, nil
}

// parseTree reads a raw tree object (see gitfmt.TreeIter).
func parseTree(data []byte) (*tree, error) {
	t := &tree{entries: make([]rawEntry, 0, bytes.Count(data, []byte{0})), sorted: true}
	it := gitfmt.NewTreeIter(data)
	for te, ok := it.Next(); ok; te, ok = it.Next() {
		e := rawEntry{name: te.Name, mode: uint32(te.Mode), hash: te.Hash}
		if k := len(t.entries); k > 0 && compare(t.entries[k-1], e) >= 0 {
			t.sorted = false
		}
		t.entries = append(t.entries, e)
	}
	if err := it.Err(); err != nil {
		return nil, err
	}
	return t, nil
}
