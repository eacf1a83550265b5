package merge

// Directory renames (git-merge(1), merge.directoryRenames, default "conflict"): when one side moved every
// file out of a directory, mostly into one other directory, a file the other side added in the old directory
// is moved into the new one, and the move is reported as a conflict for the user to confirm.

import (
	"fmt"
	"path"
	"slices"
	"strings"
)

// KindFileLocation is a file placed by a directory rename on the other side.
const KindFileLocation Kind = "file location"

// dirsOf returns every directory that holds a file on side (kept entries are on both sides).
func (m *merger) dirsOf(side int) map[string]bool {
	dirs := map[string]bool{}
	add := func(p string) {
		for d := path.Dir(p); d != "." && !dirs[d]; d = path.Dir(d) {
			dirs[d] = true
		}
	}
	for p, tr := range m.c.files {
		if tr[side].Present() {
			add(p)
		}
	}
	for p := range m.c.kept {
		add(p + "/x")
	}
	return dirs
}

// dirRenames returns side's directory renames, old directory -> new, from its file renames.
func (m *merger) dirRenames(side int, ren map[string]string) map[string]string {
	if len(ren) == 0 {
		return nil // no file moved: no directory did (and the directories of every file need not be listed)
	}
	exists := m.dirsOf(side)
	votes := map[string]map[string]int{}
	for src, dst := range ren {
		sd, dd := path.Dir(src), path.Dir(dst)
		for sd != "." && dd != "." && sd != dd {
			if !exists[sd] {
				if votes[sd] == nil {
					votes[sd] = map[string]int{}
				}
				votes[sd][dd]++
			}
			if path.Base(sd) != path.Base(dd) {
				break
			}
			sd, dd = path.Dir(sd), path.Dir(dd)
		}
	}
	out := map[string]string{}
	for old, to := range votes {
		best, n, tie := "", 0, false
		for d, c := range to {
			switch {
			case c > n:
				best, n, tie = d, c, false
			case c == n:
				tie = true
			}
		}
		if !tie {
			out[old] = best
		}
	}
	return out
}

// renamedDir returns where p goes when a directory it is in was renamed: the deepest such directory in
// which the other side added a file directly (eligible). A directory that got new files only in new
// subdirectories is not followed, as with git.
func renamedDir(p string, dirs map[string]string, eligible map[string]bool) (string, bool) {
	for d := path.Dir(p); d != "."; d = path.Dir(d) {
		if to, ok := dirs[d]; ok && eligible[d] {
			return to + strings.TrimPrefix(p, d), true
		}
	}
	return "", false
}

// applyDirRenames moves the files side `other` added into directories the opposite side renamed.
func (m *merger) applyDirRenames(ren [3]map[string]string) {
	var dirs [3]map[string]string
	for side := 1; side <= 2; side++ {
		dirs[side] = m.dirRenames(side, ren[side])
	}
	for other := 1; other <= 2; other++ {
		side := 3 - other
		if len(dirs[side]) == 0 {
			continue
		}
		dsts := map[string]string{}
		for src, dst := range ren[other] {
			dsts[dst] = src
		}
		var moves []string
		for p, tr := range m.c.files {
			if tr[other].Present() && !tr[0].Present() && !tr[side].Present() {
				moves = append(moves, p)
			}
		}
		slices.Sort(moves)
		eligible := map[string]bool{}
		for _, p := range moves {
			eligible[path.Dir(p)] = true
		}
		for _, p := range moves {
			to, ok := renamedDir(p, dirs[side], eligible)
			if !ok || m.c.files[to] != nil || m.c.kept[to].Hash != zeroHash {
				continue
			}
			tr := m.c.files[p]
			var moved triple
			moved[other] = tr[other]
			tr[other] = Entry{}
			m.c.files[to] = &moved
			if src, ok := dsts[p]; ok {
				ren[other][src] = to
			}
			m.located[to] = fmt.Sprintf("%s added in %s inside a directory that was renamed in %s, suggesting it should perhaps be moved to %s",
				p, m.label(other), m.label(side), to)
		}
	}
}

// locate reports the files a directory rename moved, unless a worse conflict was found at the same path.
func (m *merger) locate() {
	for p, msg := range m.located {
		if _, ok := m.cfl[p]; ok {
			continue
		}
		var st [3]Entry
		for side := 1; side <= 2; side++ {
			if tr := m.c.files[p]; tr != nil && tr[side].Present() && !tr[3-side].Present() {
				st[side] = m.out[p]
			}
		}
		m.conflict(Conflict{Path: p, Kind: KindFileLocation, Stages: st, Message: msg})
	}
}
