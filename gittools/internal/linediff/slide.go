package linediff

// slideGroups places each group of changed lines of t (ch) where it reads best. A group can move down by
// one line when its first line equals the line after it (that line then becomes the changed one) and up
// likewise; the texts the script keeps stay the same. Groups that meet while sliding merge. Among the
// places a group can reach: one next to a group of changes in the other text (och), so that the two make
// one replacement, else the best by [placementCost], the lowest of equals.
func slideGroups(t Text, ch, och []bool) {
	lines := t.lines
	// gap[u] ends the stretch of och between its u-th and u+1-th unchanged lines: a group of t that has u
	// unchanged lines before it faces och's changes in [gapStart(u), gap[u]).
	gap := make([]int, 0, len(och)+1)
	for j, c := range och {
		if !c {
			gap = append(gap, j)
		}
	}
	gap = append(gap, len(och))
	faces := func(u int) bool { // a non-empty group of och faces position u
		start := 0
		if u > 0 {
			start = gap[u-1] + 1
		}
		return gap[u] > start
	}
	u := 0 // unchanged lines of t before i
	for i := 0; i < len(ch); {
		if !ch[i] {
			i, u = i+1, u+1
			continue
		}
		s, e := i, i
		for e < len(ch) && ch[e] {
			e++
		}
		var top int
		for {
			size := e - s
			for s > 0 && lines[s-1] == lines[e-1] {
				ch[s-1], ch[e-1] = true, false
				s, e, u = s-1, e-1, u-1
				for s > 0 && ch[s-1] {
					s--
				}
			}
			top = s
			for e < len(ch) && lines[s] == lines[e] {
				ch[s], ch[e] = false, true
				s, e, u = s+1, e+1, u+1
				for e < len(ch) && ch[e] {
					e++
				}
			}
			if e-s == size {
				break
			}
		}
		best := s
		bestCost := -1
		for p := s; p >= top; p-- { // p: a start the group can take; u-(s-p) unchanged lines before it
			if faces(u - (s - p)) {
				best, bestCost = p, -1
				break
			}
			if c := placementCost(t, p, p+e-s); bestCost < 0 || c < bestCost {
				best, bestCost = p, c
			}
		}
		size := e - s
		for p := s; p < e; p++ {
			ch[p] = false
		}
		for p := best; p < best+size; p++ {
			ch[p] = true
		}
		u -= s - best
		i = best + size
	}
}

// placementCost scores a group of changed lines at [s, e) of t: lower reads better. A reader takes in a
// group most easily when it starts and ends where the text has a seam, so each of its two edges (cuts) is
// scored by cutCost and the scores add up.
func placementCost(t Text, s, e int) int {
	return cutCost(t, s) + cutCost(t, e)
}

// Weights of cutCost. A blank line is the strongest seam, so the blank-line score is weighted to outrank
// any indentation score of both cuts.
const (
	costNoBlank    = 2 // neither line at the cut is blank
	costBeforeOnly = 1 // the line below the cut is blank, the one above is not
	blankWeight    = 3
	costDeeper     = 1 // the cut parts a line from the more indented ones that follow it
)

// cutCost scores a cut between lines i-1 and i of t:
//   - best right after a blank line, which ends a paragraph, or at the end of the text; next best right
//     before a blank line; worst elsewhere (the start of the text counts as no seam, so that where a group
//     could touch either end, it goes down, as diffs conventionally place their groups);
//   - worse where the next non-blank line is indented deeper than the previous one: the cut would part a
//     line that opens a block (a function header, an if, a list) from the block's body.
func cutCost(t Text, i int) int {
	c := 0
	switch {
	case i >= t.Len() || i > 0 && isBlank(t, i-1):
	case isBlank(t, i):
		c += blankWeight * costBeforeOnly
	default:
		c += blankWeight * costNoBlank
	}
	if above, below := nearestIndent(t, i-1, -1), nearestIndent(t, i, 1); above >= 0 && below > above {
		c += costDeeper
	}
	return c
}

// maxIndentScan bounds how many blank lines nearestIndent looks past, so that scoring stays linear in a
// text of many blank lines.
const maxIndentScan = 20

// nearestIndent returns the indentation of the first non-blank line from i in direction dir (±1), or -1
// if there is none within maxIndentScan lines.
func nearestIndent(t Text, i, dir int) int {
	for n := 0; n < maxIndentScan && i >= 0 && i < t.Len(); i, n = i+dir, n+1 {
		if w := indent(t.lines[i]); w >= 0 {
			return w
		}
	}
	return -1
}

func isBlank(t Text, i int) bool { return indent(t.lines[i]) < 0 }

// indent returns the width of a line's leading white space, a tab reaching the next multiple of 8, or -1
// for a line of white space only.
func indent(line string) int {
	w := 0
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case ' ':
			w++
		case '\t':
			w += 8 - w%8
		case '\n', '\r', '\f', '\v':
		default:
			return w
		}
	}
	return -1
}
