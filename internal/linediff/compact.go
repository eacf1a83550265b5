package linediff

// After the search, each group of changed lines is moved to the place git-diff(1) puts it. A group can
// slide down by one line when its first line equals the line after it (that line becomes the changed one,
// the first becomes unchanged) and up likewise; the lines the script keeps stay the same. Groups that meet
// while sliding merge. Of the places a group can reach:
//
//   - the lowest one that faces a group of changes in the other text, so that the two read as one
//     replacement, when there is one;
//   - otherwise the best by the indent heuristic (git-diff(1) --indent-heuristic, on by default since git
//     2.14), which scores the two seams the group leaves in the text by blank lines and indentation;
//   - a group that cannot slide stays where it is.

// group is a run [s, e) of changed lines of one text (possibly empty) together with the group at the same
// place in the other text: both have the same number of unchanged lines before them.
type group struct {
	lines []string
	ch    []bool
	s, e  int
}

// groupAt returns the group starting at s.
func groupAt(lines []string, ch []bool, s int) group {
	g := group{lines: lines, ch: ch, s: s, e: s}
	for g.e < len(ch) && ch[g.e] {
		g.e++
	}
	return g
}

// next moves to the group after the next unchanged line; false at the end of the text.
func (g *group) next() bool {
	if g.e >= len(g.ch) {
		return false
	}
	*g = groupAt(g.lines, g.ch, g.e+1)
	return true
}

// prev moves to the group before the previous unchanged line; false at the start of the text.
func (g *group) prev() bool {
	if g.s == 0 {
		return false
	}
	g.e = g.s - 1
	g.s = g.e
	for g.s > 0 && g.ch[g.s-1] {
		g.s--
	}
	return true
}

// up slides the group up by one line, merging with a group it meets; false if it cannot.
func (g *group) up() bool {
	if g.s == 0 || g.lines[g.s-1] != g.lines[g.e-1] {
		return false
	}
	g.s, g.e = g.s-1, g.e-1
	g.ch[g.s], g.ch[g.e] = true, false
	for g.s > 0 && g.ch[g.s-1] {
		g.s--
	}
	return true
}

// down slides the group down by one line, merging with a group it meets; false if it cannot.
func (g *group) down() bool {
	if g.e >= len(g.ch) || g.lines[g.s] != g.lines[g.e] {
		return false
	}
	g.ch[g.s], g.ch[g.e] = false, true
	g.s, g.e = g.s+1, g.e+1
	for g.e < len(g.ch) && g.ch[g.e] {
		g.e++
	}
	return true
}

// maxSliding bounds how many places the indent heuristic scores per group, so that a long run of equal
// lines costs linear time.
const maxSliding = 100

// compact places the groups of changed lines of t (ch), given the changes of the other text (och).
func compact(t Text, ch, och []bool) {
	g := groupAt(t.lines, ch, 0)
	o := groupAt(nil, och, 0)
	for {
		if g.e > g.s {
			place(t, &g, &o)
		}
		if !g.next() {
			return
		}
		o.next()
	}
}

// place moves one non-empty group (and o, the group facing it) to its final place.
func place(t Text, g, o *group) {
	var size, top, facing int
	for {
		size, facing = g.e-g.s, -1
		for g.up() {
			o.prev()
		}
		top = g.e
		if o.e > o.s {
			facing = g.e
		}
		for g.down() {
			o.next()
			if o.e > o.s {
				facing = g.e
			}
		}
		if g.e-g.s == size {
			break
		}
	}
	switch {
	case g.e == top:
	case facing >= 0:
		for o.e == o.s {
			g.up()
			o.prev()
		}
	default:
		best := bestEnd(t, g.e, size, max(top, g.e-size-1, g.e-maxSliding))
		for g.e > best {
			g.up()
			o.prev()
		}
	}
}

// bestEnd returns, of the ends from lo to hi a group of size lines can take, the one whose two seams
// score best; the lowest of equals.
func bestEnd(t Text, hi, size, lo int) int {
	best, bestScore := -1, score{}
	for end := lo; end <= hi; end++ {
		var s score
		s.add(measure(t, end))
		s.add(measure(t, end-size))
		if best < 0 || s.cmp(bestScore) <= 0 {
			best, bestScore = end, s
		}
	}
	return best
}
