package merge

// Settling each path: renames first (a renamed file is merged at its new name with the other side's edits to
// the old one), then every other path by the three-way rule (a side that kept the base loses to a side that
// changed it), content merges where both changed a file, and conflicts where that cannot decide.

import (
	"bytes"
	"context"
	"fmt"
	"slices"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

type merger struct {
	s    *Store
	opts Options
	c    *collected
	out  map[string]Entry // settled paths
	cfl  map[string]*Conflict
	done map[string]bool // paths a rename already settled

	located map[string]string // files moved by a directory rename, with the message
}

var zeroHash plumbing.Hash

func (m *merger) conflict(c Conflict) {
	m.cfl[c.Path] = &c
}

// resolve settles every collected path.
func (m *merger) resolve(ctx context.Context) error {
	var ren [3]map[string]string
	ren[1], ren[2] = map[string]string{}, map[string]string{}
	if !m.opts.NoRenames {
		for side := 1; side <= 2; side++ {
			r, err := m.renames(ctx, side)
			if err != nil {
				return err
			}
			ren[side] = r
		}
	}
	if !m.opts.NoRenames {
		m.applyDirRenames(ren)
	}
	srcs := make([]string, 0, len(ren[1])+len(ren[2]))
	for side := 1; side <= 2; side++ {
		for src := range ren[side] {
			if side == 1 || ren[1][src] == "" {
				srcs = append(srcs, src)
			}
		}
	}
	slices.Sort(srcs)
	for _, src := range srcs {
		if err := m.renamed(src, ren); err != nil {
			return err
		}
	}
	paths := make([]string, 0, len(m.c.files))
	for p := range m.c.files {
		if !m.done[p] {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	for i, p := range paths {
		if i%256 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		if err := m.path(p, *m.c.files[p]); err != nil {
			return err
		}
	}
	m.locate()
	return nil
}

// renamed settles a source one or both sides renamed.
func (m *merger) renamed(src string, ren [3]map[string]string) error {
	d1, d2 := ren[1][src], ren[2][src]
	b := m.c.files[src][0]
	switch {
	case d1 != "" && d2 != "" && d1 == d2:
		m.done[src], m.done[d1] = true, true
		tr := m.c.files[d1]
		return m.content(d1, [3]string{src, d1, d1}, triple{b, tr[1], tr[2]}, KindContent)
	case d1 != "" && d2 != "":
		m.done[src], m.done[d1], m.done[d2] = true, true, true
		o, t := m.c.files[d1][1], m.c.files[d2][2]
		if err := m.content(d1, [3]string{src, d1, d2}, triple{b, o, t}, KindRenameRename); err != nil {
			return err
		}
		merged := m.out[d1]
		delete(m.cfl, d1)
		m.out[d2] = merged
		msg := fmt.Sprintf("%s renamed to %s in %s and to %s in %s", src, d1, m.opts.Labels.Ours, d2, m.opts.Labels.Theirs)
		m.conflict(Conflict{Path: src, Kind: KindRenameRename, Stages: [3]Entry{b, {}, {}}, Message: msg})
		m.conflict(Conflict{Path: d1, Kind: KindRenameRename, Stages: [3]Entry{{}, o, {}}, Message: msg})
		m.conflict(Conflict{Path: d2, Kind: KindRenameRename, Stages: [3]Entry{{}, {}, t}, Message: msg})
		return nil
	}
	side, dst := 1, d1
	if d1 == "" {
		side, dst = 2, d2
	}
	other := 3 - side
	tr := m.c.files[dst]
	moved, kept := tr[side], m.c.files[src][other]
	if tr[other].Present() {
		return nil // the other side added its own file at dst: settled there as an add/add
	}
	m.done[src], m.done[dst] = true, true
	if !kept.Present() {
		m.out[dst] = moved
		var st [3]Entry
		st[0], st[side] = b, moved
		m.conflict(Conflict{Path: dst, Kind: KindModifyDelete, Stages: st,
			Message: fmt.Sprintf("%s renamed to %s in %s, but deleted in %s", src, dst, m.label(side), m.label(other))})
		return nil
	}
	names := [3]string{src, src, src}
	names[side] = dst
	vers := triple{b}
	vers[side], vers[other] = moved, kept
	return m.content(dst, names, vers, KindContent)
}

func (m *merger) label(side int) string {
	if side == 1 {
		return m.opts.Labels.Ours
	}
	return m.opts.Labels.Theirs
}

// path settles a path no rename involves.
func (m *merger) path(p string, tr triple) error {
	b, o, t := tr[0], tr[1], tr[2]
	switch {
	case o == t:
		m.set(p, o)
	case b == o:
		m.set(p, t)
	case b == t:
		m.set(p, o)
	case !b.Present():
		return m.content(p, [3]string{p, p, p}, tr, KindAddAdd)
	case !o.Present() || !t.Present():
		kept, who, gone := o, m.opts.Labels.Ours, m.opts.Labels.Theirs
		if !o.Present() {
			kept, who, gone = t, gone, who
		}
		m.out[p] = kept
		m.conflict(Conflict{Path: p, Kind: KindModifyDelete, Stages: tr,
			Message: fmt.Sprintf("%s deleted in %s and modified in %s", p, gone, who)})
	default:
		return m.content(p, [3]string{p, p, p}, tr, KindContent)
	}
	return nil
}

func (m *merger) set(p string, e Entry) {
	if e.Present() {
		m.out[p] = e
	}
}

func isType(e Entry) filemode.FileMode {
	switch e.Mode {
	case filemode.Symlink, filemode.Submodule:
		return e.Mode
	}
	return filemode.Regular
}

// content merges the three versions of a file (names: where each version lives) into dst.
func (m *merger) content(dst string, names [3]string, tr triple, kind Kind) error {
	b, o, t := tr[0], tr[1], tr[2]
	fail := func(k Kind, e Entry) {
		m.out[dst] = e
		m.conflict(Conflict{Path: dst, Kind: k, Stages: tr, Message: fmt.Sprintf("merge conflict in %s", dst)})
	}
	if isType(o) != isType(t) || isType(o) != filemode.Regular {
		switch {
		case o == t:
			m.out[dst] = o
		case b == o:
			m.out[dst] = t
		case b == t:
			m.out[dst] = o
		default:
			fail(kind, o)
		}
		return nil
	}
	mode, modeOK := o.Mode, true
	switch {
	case o.Mode == t.Mode, b.Present() && b.Mode == t.Mode:
	case b.Present() && b.Mode == o.Mode:
		mode = t.Mode
	default:
		modeOK = false
	}
	res := Entry{Mode: mode}
	switch {
	case o.Hash == t.Hash:
		res.Hash = o.Hash
	case b.Present() && b.Hash == o.Hash:
		res.Hash = t.Hash
	case b.Present() && b.Hash == t.Hash:
		res.Hash = o.Hash
	default:
		clean, h, bin, err := m.text(names, tr)
		if err != nil {
			return err
		}
		if bin {
			fail(KindBinary, Entry{Hash: o.Hash, Mode: mode})
			return nil
		}
		res.Hash = h
		if !clean {
			fail(kind, res)
			return nil
		}
	}
	if !modeOK {
		fail(kind, res)
		return nil
	}
	m.out[dst] = res
	return nil
}

// binarySniff is how much of a file is searched for a NUL byte to call it binary, as git does.
const binarySniff = 8000

func isBinary(data []byte) bool {
	return bytes.IndexByte(data[:min(len(data), binarySniff)], 0) >= 0
}

// text merges file contents line by line and stores the result.
func (m *merger) text(names [3]string, tr triple) (clean bool, h plumbing.Hash, binary bool, err error) {
	var data [3][]byte
	for i, e := range tr {
		if !e.Present() {
			continue
		}
		if data[i], err = m.s.Blob(e.Hash); err != nil {
			return false, h, false, err
		}
		if isBinary(data[i]) {
			return false, h, true, nil
		}
	}
	l := m.opts.Labels
	if names[0] != names[1] || names[0] != names[2] {
		l = Labels{Base: l.Base + ":" + names[0], Ours: l.Ours + ":" + names[1], Theirs: l.Theirs + ":" + names[2]}
	}
	r := MergeText(data[0], data[1], data[2], m.opts.Style, l)
	h, err = m.s.PutBlob(r.Data)
	return r.Conflicts == 0, h, false, err
}
