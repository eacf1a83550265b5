// Derived from git's xdiff (LibXDiff by Davide Libenzi, as modified in git), which is licensed under the
// GNU LGPL 2.1 or later. grove's own license is not settled; see docs/rough-edges.md before relicensing.

package gittools

// xdGroup is a run of changed lines [start, end) in one file; empty groups sit between unchanged lines.
type xdGroup struct{ start, end int }

func groupInit(f *xdFile) xdGroup {
	g := xdGroup{}
	for f.changed(g.end) {
		g.end++
	}
	return g
}

func groupNext(f *xdFile, g *xdGroup) bool {
	if g.end == len(f.lines) {
		return false
	}
	g.start = g.end + 1
	for g.end = g.start; f.changed(g.end); g.end++ {
	}
	return true
}

func groupPrevious(f *xdFile, g *xdGroup) bool {
	if g.start == 0 {
		return false
	}
	g.end = g.start - 1
	for g.start = g.end; f.changed(g.start - 1); g.start-- {
	}
	return true
}

func groupSlideDown(f *xdFile, g *xdGroup) bool {
	if g.end < len(f.lines) && f.class[g.start] == f.class[g.end] {
		f.set(g.start, false)
		f.set(g.end, true)
		g.start, g.end = g.start+1, g.end+1
		for f.changed(g.end) {
			g.end++
		}
		return true
	}
	return false
}

func groupSlideUp(f *xdFile, g *xdGroup) bool {
	if g.start > 0 && f.class[g.start-1] == f.class[g.end-1] {
		g.start, g.end = g.start-1, g.end-1
		f.set(g.start, true)
		f.set(g.end, false)
		for f.changed(g.start - 1) {
			g.start--
		}
		return true
	}
	return false
}

// changeCompact is xdl_change_compact with XDF_INDENT_HEURISTIC: slide each group of changed lines in f
// as far as it goes, merging groups it meets, then settle it where it lines up with a change in o, or else
// where the indent heuristic likes it best. o's groups are walked in step.
func changeCompact(f, o *xdFile) {
	g, gOther := groupInit(f), groupInit(o)
	for {
		if g.end != g.start {
			compactGroup(f, o, &g, &gOther)
		}
		if !groupNext(f, &g) {
			break
		}
		groupNext(o, &gOther)
	}
}

func compactGroup(f, o *xdFile, g, gOther *xdGroup) {
	var groupsize, earliestEnd, endMatchingOther int
	for {
		groupsize = g.end - g.start
		endMatchingOther = -1
		for groupSlideUp(f, g) {
			groupPrevious(o, gOther)
		}
		earliestEnd = g.end
		if gOther.end > gOther.start {
			endMatchingOther = g.end
		}
		for groupSlideDown(f, g) {
			groupNext(o, gOther)
			if gOther.end > gOther.start {
				endMatchingOther = g.end
			}
		}
		if groupsize == g.end-g.start {
			break
		}
	}
	switch {
	case g.end == earliestEnd:
	case endMatchingOther != -1:
		for gOther.end == gOther.start {
			groupSlideUp(f, g)
			groupPrevious(o, gOther)
		}
	default:
		best := bestShift(f, *g, groupsize, earliestEnd)
		for g.end > best {
			groupSlideUp(f, g)
			groupPrevious(o, gOther)
		}
	}
}

// bestShift picks the end position with the lowest indent-heuristic score (ties: the furthest down).
func bestShift(f *xdFile, g xdGroup, groupsize, earliestEnd int) int {
	shift := max(earliestEnd, g.end-groupsize-1, g.end-xdlMaxIndentSlide)
	best, bestScore := -1, splitScore{}
	for ; shift <= g.end; shift++ {
		var s splitScore
		s.add(measureSplit(f, shift))
		s.add(measureSplit(f, shift-groupsize))
		if best == -1 || s.cmp(bestScore) <= 0 {
			best, bestScore = shift, s
		}
	}
	return best
}
