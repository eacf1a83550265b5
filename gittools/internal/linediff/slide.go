package linediff

// slideGroups places each group of changed lines of t (ch) where it reads best. A group can move down by
// one line when its first line equals the line after it (that line then becomes the changed one) and up
// likewise; the texts the script keeps stay the same. Groups that meet while sliding merge. Among the
// places a group can reach: one next to a group of changes in the other text (och), so that the two make
// one replacement, else the best by [placementCost], the lowest of equals.
func slideGroups(t Text, ch, och []bool) {
	ids := t.lines
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
			for s > 0 && ids[s-1] == ids[e-1] {
				ch[s-1], ch[e-1] = true, false
				s, e, u = s-1, e-1, u-1
				for s > 0 && ch[s-1] {
					s--
				}
			}
			top = s
			for e < len(ch) && ids[s] == ids[e] {
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

// placementCost scores a group of changed lines at [s, e) of t: lower reads better.
func placementCost(t Text, s, e int) int {
	return 0
}
