package main

import (
	"fmt"
	"slices"
)

// flat is the shape of issue 13's measurements: nFiles files spread over dirs directories two levels deep
// (top/sub/file), imported in one commit, then commits more commits each modifying perCommit distinct files
// picked uniformly by the seeded generator. No merges, renames or deletions: the history a plain
// `git log -- path` walks in full. LongPath is the file whose number of changing commits is closest to
// wantHits (about commits*perCommit/nFiles on average).
func (g *gen) flat(kind string, nFiles, dirs, commits, perCommit, wantHits int) Meta {
	top := max(1, isqrt(dirs))
	for d := range dirs {
		g.dirs = append(g.dirs, fmt.Sprintf("d%02d/s%03d", d%top, d/top))
	}
	var changes []change
	for i := range nFiles {
		p := fmt.Sprintf("%s/f%05d.txt", g.dirs[i%dirs], i)
		g.set(p, g.lines(3, 8))
		changes = append(changes, change{op: 'M', path: p})
	}
	slices.SortFunc(changes, func(a, b change) int { return cmpString(a.path, b.path) })
	g.commit("refs/heads/main", g.tick(), 0, 0, "Import\n", changes, nil)
	hits := make(map[string]int, nFiles)
	for range commits {
		used := make(map[string]bool, perCommit)
		changes = changes[:0]
		for len(changes) < perCommit {
			p := g.paths[g.rng.IntN(len(g.paths))]
			if used[p] {
				continue
			}
			used[p] = true
			hits[p]++
			lines := g.files[p]
			g.set(p, append(lines[:len(lines):len(lines)], g.line()))
			if len(lines) > 12 {
				g.set(p, g.lines(3, 8))
			}
			changes = append(changes, change{op: 'M', path: p})
		}
		g.commit("refs/heads/main", g.tick(), 0, 0, fmt.Sprintf("edit %s\n", changes[0].path), changes, nil)
	}
	m := Meta{Kind: kind, Commits: g.mark, Files: len(g.paths), Dirs: g.countDirs()}
	best := -1
	for _, p := range g.paths { // g.paths is in creation order: deterministic
		if d := abs(hits[p] - wantHits); best < 0 || d < best {
			best, m.LongPath, m.LongHits = d, p, hits[p]
		}
	}
	m.Modify = g.paths[:10]
	return m
}

func isqrt(n int) int {
	r := 0
	for (r+1)*(r+1) <= n {
		r++
	}
	return r
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

func cmpString(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
