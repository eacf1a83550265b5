// Derived from git's xdiff (LibXDiff by Davide Libenzi, as modified in git), which is licensed under the
// GNU LGPL 2.1 or later. grove's own license is not settled; see docs/rough-edges.md before relicensing.

package gittools

import "math"

// lineMax is XDL_LINE_MAX, the backward vector's "unreached".
const lineMax = math.MaxInt

// myers holds xdiff's K vectors (forward and backward furthest-reaching paths by diagonal) and cost limits.
type myers struct {
	kvdf, kvdb   []int
	base         int // index of diagonal 0 in both vectors
	mxcost       int
	snakeCnt     int
	heurMin      int
	i1, i2       int // the split found by split
	minLo, minHi bool
}

func newMyers(n1, n2 int) *myers {
	ndiags := n1 + n2 + 3
	return &myers{kvdf: make([]int, ndiags+1), kvdb: make([]int, ndiags+1), base: n2 + 1,
		mxcost: max(bogosqrt(ndiags), xdlMaxCostMin), snakeCnt: xdlSnakeCnt, heurMin: xdlHeurMinCost}
}

func (m *myers) f(d int) *int { return &m.kvdf[m.base+d] }
func (m *myers) b(d int) *int { return &m.kvdb[m.base+d] }

// recsCmp is xdl_recs_cmp: shrink the box by its equal ends, then split it and recurse.
func (m *myers) recsCmp(x1 *xdFile, off1, lim1 int, x2 *xdFile, off2, lim2 int, needMin bool) {
	for off1 < lim1 && off2 < lim2 && x1.hash(off1) == x2.hash(off2) {
		off1, off2 = off1+1, off2+1
	}
	for off1 < lim1 && off2 < lim2 && x1.hash(lim1-1) == x2.hash(lim2-1) {
		lim1, lim2 = lim1-1, lim2-1
	}
	switch {
	case off1 == lim1:
		for ; off2 < lim2; off2++ {
			x2.set(x2.rindex[off2], true)
		}
	case off2 == lim2:
		for ; off1 < lim1; off1++ {
			x1.set(x1.rindex[off1], true)
		}
	default:
		m.split(x1, off1, lim1, x2, off2, lim2, needMin)
		i1, i2, lo, hi := m.i1, m.i2, m.minLo, m.minHi
		m.recsCmp(x1, off1, i1, x2, off2, i2, lo)
		m.recsCmp(x1, i1, lim1, x2, i2, lim2, hi)
	}
}

// split is xdl_split: find the middle snake of the box, or a good-enough split once the cost grows.
func (m *myers) split(x1 *xdFile, off1, lim1 int, x2 *xdFile, off2, lim2 int, needMin bool) {
	dmin, dmax := off1-lim2, lim1-off2
	fmid, bmid := off1-off2, lim1-lim2
	odd := (fmid-bmid)&1 != 0
	fmin, fmax, bmin, bmax := fmid, fmid, bmid, bmid
	*m.f(fmid) = off1
	*m.b(bmid) = lim1
	for ec := 1; ; ec++ {
		gotSnake := false
		if fmin > dmin {
			fmin--
			*m.f(fmin - 1) = -1
		} else {
			fmin++
		}
		if fmax < dmax {
			fmax++
			*m.f(fmax + 1) = -1
		} else {
			fmax--
		}
		for d := fmax; d >= fmin; d -= 2 {
			var i1 int
			if *m.f(d - 1) >= *m.f(d + 1) {
				i1 = *m.f(d - 1) + 1
			} else {
				i1 = *m.f(d + 1)
			}
			prev1 := i1
			i2 := i1 - d
			for i1 < lim1 && i2 < lim2 && x1.hash(i1) == x2.hash(i2) {
				i1, i2 = i1+1, i2+1
			}
			if i1-prev1 > m.snakeCnt {
				gotSnake = true
			}
			*m.f(d) = i1
			if odd && bmin <= d && d <= bmax && *m.b(d) <= i1 {
				m.i1, m.i2, m.minLo, m.minHi = i1, i2, true, true
				return
			}
		}
		if bmin > dmin {
			bmin--
			*m.b(bmin - 1) = lineMax
		} else {
			bmin++
		}
		if bmax < dmax {
			bmax++
			*m.b(bmax + 1) = lineMax
		} else {
			bmax--
		}
		for d := bmax; d >= bmin; d -= 2 {
			var i1 int
			if *m.b(d - 1) < *m.b(d + 1) {
				i1 = *m.b(d - 1)
			} else {
				i1 = *m.b(d + 1) - 1
			}
			prev1 := i1
			i2 := i1 - d
			for i1 > off1 && i2 > off2 && x1.hash(i1-1) == x2.hash(i2-1) {
				i1, i2 = i1-1, i2-1
			}
			if prev1-i1 > m.snakeCnt {
				gotSnake = true
			}
			*m.b(d) = i1
			if !odd && fmin <= d && d <= fmax && i1 <= *m.f(d) {
				m.i1, m.i2, m.minLo, m.minHi = i1, i2, true, true
				return
			}
		}
		if needMin {
			continue
		}
		if gotSnake && ec > m.heurMin && m.heuristicSplit(x1, off1, lim1, x2, off2, lim2, ec, fmin, fmax, bmin, bmax, fmid, bmid) {
			return
		}
		if ec >= m.mxcost {
			m.furthestSplit(off1, lim1, off2, lim2, fmin, fmax, bmin, bmax)
			return
		}
	}
}

// heuristicSplit samples the diagonals for a long snake far from both corners (xdl_split's "interesting path").
func (m *myers) heuristicSplit(x1 *xdFile, off1, lim1 int, x2 *xdFile, off2, lim2, ec, fmin, fmax, bmin, bmax, fmid, bmid int) bool {
	best := 0
	for d := fmax; d >= fmin; d -= 2 {
		dd := absInt(d - fmid)
		i1 := *m.f(d)
		i2 := i1 - d
		v := (i1 - off1) + (i2 - off2) - dd
		if v > xdlKHeur*ec && v > best && off1+m.snakeCnt <= i1 && i1 < lim1 && off2+m.snakeCnt <= i2 && i2 < lim2 {
			for k := 1; x1.hash(i1-k) == x2.hash(i2-k); k++ {
				if k == m.snakeCnt {
					best, m.i1, m.i2 = v, i1, i2
					break
				}
			}
		}
	}
	if best > 0 {
		m.minLo, m.minHi = true, false
		return true
	}
	for d := bmax; d >= bmin; d -= 2 {
		dd := absInt(d - bmid)
		i1 := *m.b(d)
		i2 := i1 - d
		v := (lim1 - i1) + (lim2 - i2) - dd
		if v > xdlKHeur*ec && v > best && off1 < i1 && i1 <= lim1-m.snakeCnt && off2 < i2 && i2 <= lim2-m.snakeCnt {
			for k := 0; x1.hash(i1+k) == x2.hash(i2+k); k++ {
				if k == m.snakeCnt-1 {
					best, m.i1, m.i2 = v, i1, i2
					break
				}
			}
		}
	}
	if best > 0 {
		m.minLo, m.minHi = false, true
		return true
	}
	return false
}

// furthestSplit gives up on the optimum and splits at the furthest-reaching path.
func (m *myers) furthestSplit(off1, lim1, off2, lim2, fmin, fmax, bmin, bmax int) {
	fbest, fbest1 := -1, -1
	for d := fmax; d >= fmin; d -= 2 {
		i1 := min(*m.f(d), lim1)
		i2 := i1 - d
		if lim2 < i2 {
			i1, i2 = lim2+d, lim2
		}
		if fbest < i1+i2 {
			fbest, fbest1 = i1+i2, i1
		}
	}
	bbest, bbest1 := lineMax, lineMax
	for d := bmax; d >= bmin; d -= 2 {
		i1 := max(off1, *m.b(d))
		i2 := i1 - d
		if i2 < off2 {
			i1, i2 = off2+d, off2
		}
		if i1+i2 < bbest {
			bbest, bbest1 = i1+i2, i1
		}
	}
	if (lim1+lim2)-bbest < fbest-(off1+off2) {
		m.i1, m.i2, m.minLo, m.minHi = fbest1, fbest-fbest1, true, false
	} else {
		m.i1, m.i2, m.minLo, m.minHi = bbest1, bbest-bbest1, false, true
	}
}

func absInt(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
