package main

import (
	"fmt"
	"math/rand/v2"
	"path"
)

// step is one commit of the main line.
type step struct {
	mark    int
	at      int64
	touched []string
}

// history drives the main line: hot files (Zipf) and uniform picks, one long-history path, additions,
// deletions, renames and, every mergeEvery commits, a topic branch merged back.
type history struct {
	g          *gen
	steps      []step
	hot        []string
	hotSet     map[string]bool
	zipf       *rand.Zipf
	long       string
	longProb   float64
	longHits   int
	mergeEvery int
	merges     int
	renames    int
}

func (g *gen) newHistory(long string, longProb float64, mergeEvery int) *history {
	h := &history{g: g, long: long, longProb: longProb, mergeEvery: mergeEvery, hotSet: map[string]bool{long: true}}
	for len(h.hot) < 100 {
		p := g.paths[g.rng.IntN(len(g.paths))]
		if !h.hotSet[p] {
			h.hot = append(h.hot, p)
			h.hotSet[p] = true
		}
	}
	h.zipf = rand.NewZipf(g.rng, 1.3, 1, uint64(len(h.hot)-1))
	return h
}

// record appends a main-line commit.
func (h *history) record(mark int, at int64, changes []change) {
	var touched []string
	for _, c := range changes {
		touched = append(touched, c.path)
		if c.op == 'R' {
			touched = append(touched, c.from)
		}
	}
	h.steps = append(h.steps, step{mark, at, touched})
}

// next writes the i-th main-line commit: a merge of a topic branch or an ordinary commit.
func (h *history) next(i int) {
	if h.mergeEvery > 0 && i%h.mergeEvery == h.mergeEvery/2 && len(h.steps) > 10 {
		h.merge(i)
		return
	}
	g := h.g
	var changes []change
	used := make(map[string]bool)
	if g.rng.Float64() < h.longProb {
		changes = append(changes, h.modify(h.long, used))
		h.longHits++
	}
	for k := 1 + g.rng.IntN(2) + g.rng.IntN(2)*g.rng.IntN(3); len(changes) < k; {
		changes = append(changes, h.random(used)...)
	}
	at := g.tick()
	msg := fmt.Sprintf("%s: %s %s %s\n", path.Base(path.Dir(changes[0].path)), g.word(), g.word(), g.word())
	if g.rng.IntN(3) == 0 {
		msg += fmt.Sprintf("\nThe %s %s now %s the %s.\n", g.word(), g.word(), g.word(), g.word())
	}
	h.record(g.commit("refs/heads/main", at, 0, 0, msg, changes, nil), at, changes)
}

func (h *history) modify(p string, used map[string]bool) change {
	used[p] = true
	h.g.set(p, h.g.edit(h.g.files[p]))
	return change{op: 'M', path: p}
}

// random picks one change: mostly a modification (40 % of them among the hot files), sometimes an
// addition, a deletion or a rename (with an edit half of the time).
func (h *history) random(used map[string]bool) []change {
	g := h.g
	r := g.rng.Float64()
	switch {
	case r < 0.05:
		p := g.newPath()
		used[p] = true
		g.set(p, g.lines(10, 150))
		return []change{{op: 'M', path: p}}
	case r < 0.07:
		p := g.paths[g.rng.IntN(len(g.paths))]
		if h.hotSet[p] || used[p] {
			return nil
		}
		used[p] = true
		if r < 0.06 {
			g.remove(p)
			return []change{{op: 'D', path: p}}
		}
		to := g.newPath()
		used[to] = true
		lines := g.files[p]
		g.remove(p)
		g.set(to, lines)
		h.renames++
		out := []change{{op: 'R', from: p, path: to}}
		if g.rng.IntN(2) == 0 {
			out = append(out, h.modify(to, used))
		}
		return out
	}
	p := g.paths[g.rng.IntN(len(g.paths))]
	if g.rng.IntN(10) < 4 {
		p = h.hot[h.zipf.Uint64()]
	}
	if used[p] {
		return nil
	}
	return []change{h.modify(p, used)}
}

// merge writes a topic branch of 2-4 commits forked 8 commits back, adding and editing files in its own
// directory, then merges it into main.
func (h *history) merge(i int) {
	g := h.g
	base := h.steps[len(h.steps)-8]
	ref := fmt.Sprintf("refs/heads/topic/%s-%d", g.word(), i)
	dir := fmt.Sprintf("%s/feature_%s_%d", path.Dir(g.dirs[g.rng.IntN(len(g.dirs))]), g.word(), i)
	contents := make(map[string][]string)
	var names []string
	at, from, tip := base.at, base.mark, 0
	for k := range 2 + g.rng.IntN(3) {
		var changes []change
		if k == 0 || g.rng.IntN(2) == 0 {
			p := fmt.Sprintf("%s/%s_%s.go", dir, g.word(), g.word())
			if contents[p] == nil {
				names = append(names, p)
				contents[p] = g.lines(20, 120)
			}
			changes = append(changes, change{op: 'M', path: p})
		}
		p := names[g.rng.IntN(len(names))]
		contents[p] = g.edit(contents[p])
		changes = append(changes, change{op: 'M', path: p})
		at += int64(300 + g.rng.IntN(1800))
		tip = g.commit(ref, min(at, g.now), from, 0, fmt.Sprintf("%s: %s %s\n", path.Base(dir), g.word(), g.word()), changes, contents)
		from = 0
	}
	var changes []change
	for _, p := range names {
		changes = append(changes, change{op: 'M', path: p})
		g.set(p, contents[p])
	}
	now := g.tick()
	msg := fmt.Sprintf("Merge branch '%s'\n", ref[len("refs/heads/"):])
	h.record(g.commit("refs/heads/main", now, 0, tip, msg, changes, contents), now, changes)
	h.merges++
}

// diffBase tags diff1000-a and diff1000-b so that the range touches at least want paths, ending at the tip.
func (h *history) diffBase(want int) (int, string, string) {
	seen := make(map[string]bool)
	j := len(h.steps) - 1
	for ; j > 1 && len(seen) < want; j-- {
		for _, p := range h.steps[j].touched {
			seen[p] = true
		}
	}
	h.g.tag("diff1000-a", h.steps[j].mark)
	h.g.tag("diff1000-b", h.steps[len(h.steps)-1].mark)
	return len(seen), "diff1000-a", "diff1000-b"
}

// pickModify returns 10 distinct current files other than the long-history path.
func (h *history) pickModify() []string {
	var out []string
	seen := map[string]bool{h.long: true}
	for len(out) < 10 {
		p := h.g.paths[h.g.rng.IntN(len(h.g.paths))]
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}
