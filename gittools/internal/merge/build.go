package merge

// Entry points and the result tree: settled files and kept entries assembled into trees, with a file that a
// directory on the other side is in the way of moved aside (to path~label, as git does).

import (
	"context"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// Trees merges the trees ours and theirs, whose common ancestor is base (the zero hash: none). The objects it
// creates are stored when it returns (see Store.Pack).
func Trees(ctx context.Context, s *Store, base, ours, theirs plumbing.Hash, opts Options) (*Result, error) {
	res, err := trees(ctx, s, base, ours, theirs, opts)
	if err == nil {
		err = s.Flush()
	}
	if err != nil {
		return nil, err
	}
	return res, nil
}

// trees is Trees without the Flush, for merges of merges.
func trees(ctx context.Context, s *Store, base, ours, theirs plumbing.Hash, opts Options) (*Result, error) {
	c, err := s.collect(ctx, base, ours, theirs)
	if err != nil {
		return nil, err
	}
	m := &merger{s: s, opts: opts, c: c, out: map[string]Entry{}, cfl: map[string]*Conflict{}, done: map[string]bool{}, located: map[string]string{}}
	if err := m.resolve(ctx); err != nil {
		return nil, err
	}
	m.fileDirectory()
	tree, err := m.build()
	if err != nil {
		return nil, err
	}
	res := &Result{Tree: tree, Changed: make(map[string]Entry, len(m.c.files)+len(m.out))}
	for p := range m.c.files { // the paths where ours and theirs differ: the only ones the result can change
		res.Changed[p] = Entry{}
	}
	for p, e := range m.out {
		res.Changed[p] = e
	}
	for _, c := range m.cfl {
		res.Conflicts = append(res.Conflicts, *c)
	}
	slices.SortFunc(res.Conflicts, func(a, b Conflict) int { return strings.Compare(a.Path, b.Path) })
	return res, nil
}

// fileDirectory moves each settled file that has files below it to path~label.
func (m *merger) fileDirectory() {
	dirs := map[string]bool{}
	mark := func(p string) {
		for d := path.Dir(p); d != "."; d = path.Dir(d) {
			if dirs[d] {
				break
			}
			dirs[d] = true
		}
	}
	for p := range m.out {
		mark(p)
	}
	for p, e := range m.c.kept {
		mark(p)
		if e.Mode == filemode.Dir {
			dirs[p] = true
		}
	}
	for p, e := range m.out {
		if !dirs[p] {
			continue
		}
		side := 1
		if tr := m.c.files[p]; tr != nil && tr[1] != e && tr[2] == e {
			side = 2
		}
		to := p + "~" + strings.ReplaceAll(m.label(side), "/", "_")
		for n := 1; m.taken(to, dirs); n++ {
			to = fmt.Sprintf("%s~%s_%d", p, m.label(side), n)
		}
		delete(m.out, p)
		m.out[to] = e
		var st [3]Entry
		st[side] = e
		if tr := m.c.files[p]; tr != nil {
			st[0] = tr[0]
		}
		delete(m.cfl, p)
		m.conflict(Conflict{Path: to, Kind: KindFileDirectory, Stages: st,
			Message: fmt.Sprintf("directory in the way of %s from %s; moving it to %s instead", p, m.label(side), to)})
	}
}

func (m *merger) taken(p string, dirs map[string]bool) bool {
	_, a := m.out[p]
	_, b := m.c.kept[p]
	return a || b || dirs[p]
}

// dirNode is a directory of the result being assembled.
type dirNode struct {
	entries []object.TreeEntry
	subs    map[string]*dirNode
}

func (d *dirNode) at(p string) (*dirNode, string) {
	dir, base := path.Split(p)
	if dir == "" {
		return d, base
	}
	for _, c := range strings.Split(strings.TrimSuffix(dir, "/"), "/") {
		sub := d.subs[c]
		if sub == nil {
			sub = &dirNode{subs: map[string]*dirNode{}}
			d.subs[c] = sub
		}
		d = sub
	}
	return d, base
}

// build writes the result's trees and returns the root's hash.
func (m *merger) build() (plumbing.Hash, error) {
	if e, ok := m.c.kept[""]; ok {
		return e.Hash, nil
	}
	root := &dirNode{subs: map[string]*dirNode{}}
	for p, e := range m.c.kept {
		d, name := root.at(p)
		d.entries = append(d.entries, object.TreeEntry{Name: name, Mode: e.Mode, Hash: e.Hash})
	}
	for p, e := range m.out {
		d, name := root.at(p)
		d.entries = append(d.entries, object.TreeEntry{Name: name, Mode: e.Mode, Hash: e.Hash})
	}
	return m.store(root)
}

func (m *merger) store(d *dirNode) (plumbing.Hash, error) {
	for name, sub := range d.subs {
		h, err := m.store(sub)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		if len(sub.entries) > 0 {
			d.entries = append(d.entries, object.TreeEntry{Name: name, Mode: filemode.Dir, Hash: h})
		}
	}
	return m.s.PutTree(d.entries)
}
