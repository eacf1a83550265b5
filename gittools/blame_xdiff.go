// Derived from git's xdiff (LibXDiff by Davide Libenzi, as modified in git), which is licensed under the
// GNU LGPL 2.1 or later. grove's own license is not settled; see docs/rough-edges.md before relicensing.

package gittools

// This file ports the parts of git's xdiff (xprepare.c, xdiffi.c) that decide which lines a blame diff calls
// changed: trimming the common ends, discarding lines without a match, Myers' divide and conquer with
// xdiff's cost heuristics, then sliding change groups (xdl_change_compact) with the indent heuristic. When a
// diff is ambiguous (a block of equal lines could match either of two places) blame's answer depends on these
// exact choices, so a generic LCS would blame some lines on the wrong one of two commits.

// xdFile is one side of a diff: lines as equivalence classes, which lines are changed, and the lines left
// for the Myers pass after discarding.
type xdFile struct {
	lines        []string
	class        []int32
	chg          []bool // chg[i+1] reports line i; chg[0] and chg[n+1] are sentinels
	rindex       []int  // lines left for Myers, by index
	dstart, dend int    // the range left after trimming equal ends
}

func (f *xdFile) changed(i int) bool {
	if i < -1 || i > len(f.lines) {
		return false
	}
	return f.chg[i+1]
}

func (f *xdFile) set(i int, v bool) { f.chg[i+1] = v }

// hash returns the class of the i-th line left for Myers.
func (f *xdFile) hash(i int) int32 { return f.class[f.rindex[i]] }

// lineClasses numbers distinct lines (xdiff's classifier) across all the diffs of one blame, so each blob is
// classified once.
type lineClasses struct {
	ids    map[string]int32
	counts []int32 // scratch of cleanupRecords, indexed by class; all zero between uses
}

func (lc *lineClasses) classify(lines []string) []int32 {
	if lc.ids == nil {
		lc.ids = make(map[string]int32, len(lines))
	}
	out := make([]int32, len(lines))
	for i, l := range lines {
		c, ok := lc.ids[l]
		if !ok {
			c = int32(len(lc.ids))
			lc.ids[l] = c
			lc.counts = append(lc.counts, 0)
		}
		out[i] = c
	}
	return out
}

// xdiff returns the changes from a to b as `git blame`'s diff finds them; ca and cb are their classes.
func xdiff(a, b []string, ca, cb []int32, lc *lineClasses) []lineChange {
	f1, f2 := newXDFile(a, ca), newXDFile(b, cb)
	trimEnds(f1, f2)
	cleanupRecords(f1, f2, lc.counts)
	cleanupRecords(f2, f1, lc.counts)
	env := newMyers(len(f1.rindex), len(f2.rindex))
	env.recsCmp(f1, 0, len(f1.rindex), f2, 0, len(f2.rindex), false)
	changeCompact(f1, f2)
	changeCompact(f2, f1)
	return buildScript(f1, f2)
}

func newXDFile(lines []string, class []int32) *xdFile {
	return &xdFile{lines: lines, class: class, chg: make([]bool, len(lines)+2)}
}

// trimEnds is xdl_trim_ends: equal leading and trailing lines are never changed.
func trimEnds(f1, f2 *xdFile) {
	lim := min(len(f1.lines), len(f2.lines))
	i := 0
	for i < lim && f1.class[i] == f2.class[i] {
		i++
	}
	f1.dstart, f2.dstart = i, i
	lim -= i
	j := 0
	for j < lim && f1.class[len(f1.lines)-1-j] == f2.class[len(f2.lines)-1-j] {
		j++
	}
	f1.dend, f2.dend = len(f1.lines)-j-1, len(f2.lines)-j-1
}

// Limits of xdl_cleanup_records.
const (
	xdlMaxEqLimit     = 1024
	xdlSimscanWindow  = 100
	xdlKpdisRun       = 4
	xdlMaxCostMin     = 256
	xdlHeurMinCost    = 256
	xdlSnakeCnt       = 20
	xdlKHeur          = 4
	xdlMaxIndent      = 200
	xdlMaxBlanks      = 20
	xdlMaxIndentSlide = 100
)

func bogosqrt(n int) int {
	i := 1
	for ; n > 0; n >>= 2 {
		i <<= 1
	}
	return i
}

// cleanupRecords is xdl_cleanup_records for f: lines with no match in o are changed outright, and so are
// lines with many matches that sit in a run of such lines; the rest go to Myers.
// counts is zeroed scratch, returned zeroed.
func cleanupRecords(f, o *xdFile, counts []int32) {
	for _, c := range o.class {
		counts[c]++
	}
	defer func() {
		for _, c := range o.class {
			counts[c]--
		}
	}()
	mlim := int32(min(bogosqrt(len(f.lines)), xdlMaxEqLimit))
	dis := make([]byte, len(f.lines)+1)
	for i := f.dstart; i <= f.dend; i++ {
		switch nm := counts[f.class[i]]; {
		case nm == 0:
			dis[i] = 0
		case nm >= mlim:
			dis[i] = 2
		default:
			dis[i] = 1
		}
	}
	for i := f.dstart; i <= f.dend; i++ {
		if dis[i] == 1 || dis[i] == 2 && !cleanMmatch(dis, i, f.dstart, f.dend) {
			f.rindex = append(f.rindex, i)
		} else {
			f.set(i, true)
		}
	}
}

// cleanMmatch is xdl_clean_mmatch: whether multimatch line i lies in a run of mostly unmatched lines.
func cleanMmatch(dis []byte, i, s, e int) bool {
	s, e = max(s, i-xdlSimscanWindow), min(e, i+xdlSimscanWindow)
	rdis0, rpdis0 := 0, 1
	for r := 1; i-r >= s; r++ {
		if dis[i-r] == 0 {
			rdis0++
		} else if dis[i-r] == 2 {
			rpdis0++
		} else {
			break
		}
	}
	if rdis0 == 0 {
		return false
	}
	rdis1, rpdis1 := 0, 1
	for r := 1; i+r <= e; r++ {
		if dis[i+r] == 0 {
			rdis1++
		} else if dis[i+r] == 2 {
			rpdis1++
		} else {
			break
		}
	}
	if rdis1 == 0 {
		return false
	}
	rdis1 += rdis0
	rpdis1 += rpdis0
	return rpdis1*xdlKpdisRun < rpdis1+rdis1
}

// buildScript is xdl_build_script: the changes in order.
func buildScript(f1, f2 *xdFile) []lineChange {
	var rev []lineChange
	for i1, i2 := len(f1.lines), len(f2.lines); i1 >= 0 || i2 >= 0; i1, i2 = i1-1, i2-1 {
		if f1.changed(i1-1) || f2.changed(i2-1) {
			l1, l2 := i1, i2
			for f1.changed(i1 - 1) {
				i1--
			}
			for f2.changed(i2 - 1) {
				i2--
			}
			rev = append(rev, lineChange{i1, l1, i2, l2})
		}
	}
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	return rev
}
