package main

import (
	"fmt"
	"slices"
	"strings"
)

// tree makes top × sub × leaf directories named from words and returns the leaves.
func tree(top []string, sub, leaf int) []string {
	var out []string
	for i, t := range top {
		for j := range sub {
			s := fmt.Sprintf("%s/%s%02d", t, words[(i*7+j)%len(words)], j)
			for k := range leaf {
				out = append(out, fmt.Sprintf("%s/%s%02d", s, words[(i*3+j*5+k)%len(words)], k))
			}
		}
	}
	return out
}

// mid: ~3,200 files at the start growing to ~5,000, n main-line commits, a merge every 400 commits,
// src/core/scheduler.go touched by ~4 % of the commits.
func (g *gen) mid(n int) Meta {
	g.dirs = tree([]string{"src", "pkg", "internal", "cmd", "docs", "test", "lib", "tools", "web", "api"}, 5, 5)
	const long = "src/core/scheduler.go"
	var changes []change
	g.set(long, g.lines(200, 300))
	changes = append(changes, change{op: 'M', path: long})
	for range 3200 {
		p := g.newPath()
		g.set(p, g.lines(10, 150))
		changes = append(changes, change{op: 'M', path: p})
	}
	at := g.tick()
	h := g.newHistory(long, 0.04, 400)
	h.record(g.commit("refs/heads/main", at, 0, 0, "Initial import\n", changes, nil), at, changes)
	for i := 1; i < n; i++ {
		h.next(i)
	}
	for range 5 { // the tip and its parent are ordinary commits
		h.next(1)
	}
	return h.meta("mid")
}

// wide: 20 × 16 × 16 = 5,120 leaf directories of 10 files each, imported in 10 commits, then n-10
// commits of which the one at 5/8 of the way (tag diff1000-b) modifies 1,000 files.
func (g *gen) wide(n int) Meta {
	g.dirs = tree(words[:20], 16, 16)
	long := g.dirs[0] + "/registry.go"
	g.set(long, g.lines(100, 200))
	for i := range 10 {
		var changes []change
		if i == 0 {
			changes = append(changes, change{op: 'M', path: long})
		}
		for _, d := range g.dirs[i*len(g.dirs)/10 : (i+1)*len(g.dirs)/10] {
			for k := range 10 {
				p := fmt.Sprintf("%s/%s_%s%d.go", d, words[k*3%len(words)], words[(k*11+len(d))%len(words)], k)
				g.set(p, g.lines(5, 40))
				changes = append(changes, change{op: 'M', path: p})
			}
		}
		g.commit("refs/heads/main", g.tick(), 0, 0, fmt.Sprintf("Import part %d of 10\n", i+1), changes, nil)
	}
	h := g.newHistory(long, 0.25, 100)
	for i := 10; i < n; i++ {
		if i == n*5/8 {
			h.big(1000)
			continue
		}
		h.next(i)
	}
	return h.meta("wide")
}

// big writes one commit editing k random files and tags it and its parent.
func (h *history) big(k int) {
	g := h.g
	used := make(map[string]bool)
	var changes []change
	for len(changes) < k {
		p := g.paths[g.rng.IntN(len(g.paths))]
		if !used[p] {
			changes = append(changes, h.modify(p, used))
		}
	}
	slices.SortFunc(changes, func(a, b change) int { return strings.Compare(a.path, b.path) })
	g.tag("diff1000-a", h.steps[len(h.steps)-1].mark)
	at := g.tick()
	mark := g.commit("refs/heads/main", at, 0, 0, "Rename the logging calls in 1,000 files\n", changes, nil)
	h.record(mark, at, changes)
	g.tag("diff1000-b", mark)
}

func (h *history) meta(kind string) Meta {
	m := Meta{
		Kind: kind, Commits: h.g.mark, Merges: h.merges, Renames: h.renames,
		Files: len(h.g.paths), Dirs: h.g.countDirs(), LongPath: h.long, LongHits: h.longHits,
		Modify: h.pickModify(), DiffA: "diff1000-a", DiffB: "diff1000-b",
	}
	if kind == "mid" {
		m.DiffFiles, _, _ = h.diffBase(1000)
	} else {
		m.DiffFiles = 1000
	}
	return m
}
