package linediff

// mark sets chA[i] for each line of a the script deletes and chB[j] for each line of b it inserts.
//
// Lines at the common start and end are never changed, and a line whose id the other side lacks always
// is: both are settled before the search, which then runs on the remaining lines only. Leaving out lines
// that can match nothing keeps the script shortest (a common subsequence never uses them) and makes very
// different texts cheap.
func (d *Differ) mark(a, b Text, chA, chB []bool) {
	lo := 0
	for lo < a.Len() && lo < b.Len() && a.lines[lo] == b.lines[lo] {
		lo++
	}
	hiA, hiB := a.Len(), b.Len()
	for hiA > lo && hiB > lo && a.lines[hiA-1] == b.lines[hiB-1] {
		hiA, hiB = hiA-1, hiB-1
	}
	// Whether a line can match is decided against the whole other text, the lines in common at either
	// end included, as git decides it: a line of the middle whose only copies on the other side are at
	// the ends stays in the search. It changes no script's length, only which of the shortest is found.
	ma, mb := d.number(a, lo, hiA), d.number(b, lo, hiB)
	ends := d.endCopies(a, b, lo, hiA, hiB)
	ra, ia := d.matchable(ma, mb, ends, a.Len(), chA[lo:hiA])
	rb, ib := d.matchable(mb, ma, ends, b.Len(), chB[lo:hiB])
	s := search{a: ra, b: rb, chA: make([]bool, len(ra)), chB: make([]bool, len(rb)), budget: d.Budget,
		rounds: max(minSearchRounds, manyMatches(len(ra)+len(rb)+3))}
	if s.budget <= 0 {
		s.budget = DefaultBudget
	}
	size := len(ra) + len(rb) + 3 // diagonals -len(rb)-1 to len(ra)+1
	if cap(d.v) < 2*size {
		d.v = make([]int, 2*size)
	}
	s.fwd, s.bwd = d.v[:size], d.v[size:2*size]
	s.compare(0, len(ra), 0, len(rb))
	for k, i := range ia {
		chA[lo+i] = s.chA[k]
	}
	for k, j := range ib {
		chB[lo+j] = s.chB[k]
	}
}

// matchable returns the lines of x (the middle of a text of total lines) that the search is to align,
// with their indexes in x, and marks the others changed in ch. Left out are the lines whose id y (the
// whole other text) lacks, and, as git leaves them out, common lines stranded among them: a line with
// many copies in y (see manyMatches) inside a stretch of such lines and unmatched ones, bounded on both
// sides by unmatched lines, where the common lines are under a quarter of the stretch. Leaving out a line
// with no match keeps the script shortest; leaving out a stranded common line may lengthen it by that
// line, which reads better (a blank line amid rewritten paragraphs is rewritten with them) and makes
// such texts cheap.
func (d *Differ) matchable(x, y, ends []int32, total int, ch []bool) ([]int32, []int) {
	if need := len(d.ids); len(d.count) < need {
		d.count = make([]int32, max(need, 2*len(d.count))) // zero: every use clears what it set
	}
	for _, id := range y {
		d.count[id]++
	}
	for _, id := range ends {
		d.count[id]++
	}
	many := int32(min(manyMatches(total), maxManyMatches))
	kind := make([]byte, len(x)) // 0: no match, 1: matched, 2: many matches
	for i, id := range x {
		switch n := d.count[id]; {
		case n == 0:
		case n >= many:
			kind[i] = 2
		default:
			kind[i] = 1
		}
	}
	for _, id := range y {
		d.count[id] = 0
	}
	for _, id := range ends {
		d.count[id] = 0
	}
	keep, idx := make([]int32, 0, len(x)), make([]int, 0, len(x))
	for i, id := range x {
		if kind[i] == 0 || kind[i] == 2 && stranded(kind, i) {
			ch[i] = true
			continue
		}
		keep, idx = append(keep, id), append(idx, i)
	}
	return keep, idx
}

// endCopies returns the ids of the lines the two texts share at either end (lines [0, lo) and [hiA, len)
// of a, the same as b's) that equal some line of the middles: those are the end lines that count as
// copies of a middle line. An end line is hashed only when a middle line has its length, so that a small
// edit to a long text costs little more than its middle.
func (d *Differ) endCopies(a, b Text, lo, hiA, hiB int) []int32 {
	if lo == 0 && hiA == a.Len() {
		return nil
	}
	const maxLen = 1 << 12 // longer lines share one slot
	var lens [maxLen + 1]bool
	for _, l := range a.lines[lo:hiA] {
		lens[min(len(l), maxLen)] = true
	}
	for _, l := range b.lines[lo:hiB] {
		lens[min(len(l), maxLen)] = true
	}
	var out []int32
	for _, end := range [][]string{a.lines[:lo], a.lines[hiA:]} {
		for _, l := range end {
			if !lens[min(len(l), maxLen)] {
				continue
			}
			if id, ok := d.ids[l]; ok {
				out = append(out, id)
			}
		}
	}
	return out
}

// maxManyMatches caps the copies that make a line common; strandWindow bounds how far stranded looks.
const (
	maxManyMatches = 1024
	strandWindow   = 100
)

// manyMatches is how many copies make a line common in a text of n lines: the least power of two 2^k with
// 4^k > n, about the square root of n.
func manyMatches(n int) int {
	p := 1
	for ; n > 0; n >>= 2 {
		p <<= 1
	}
	return p
}

// stranded reports whether the common line i lies among unmatched lines (see matchable).
func stranded(kind []byte, i int) bool {
	common, unmatched := 2, 0 // line i, counted once for each side
	for _, dir := range []int{-1, 1} {
		found := 0
		for j := i + dir; j >= 0 && j < len(kind) && j-i <= strandWindow && i-j <= strandWindow; j += dir {
			if kind[j] == 0 {
				found++
			} else if kind[j] == 2 {
				common++
			} else {
				break
			}
		}
		if found == 0 {
			return false
		}
		unmatched += found
	}
	return common*4 < common+unmatched
}

// search finds a shortest edit script between a and b by Myers' divide and conquer: find the middle
// snake of a shortest path through the edit graph by searching from both corners at once, then solve the
// two halves it leaves. x indexes a, y indexes b, and diagonal k holds the points with x-y == k.
type search struct {
	a, b     []int32
	chA, chB []bool
	fwd, bwd []int // furthest x per diagonal (offset by len(b)+1): forward from the start, backward from the end
	budget   int
	rounds   int // rounds a split searches before it settles (see minSearchRounds)
}

// compare marks the changes between a[a0:a1] and b[b0:b1].
func (s *search) compare(a0, a1, b0, b1 int) {
	for {
		for a0 < a1 && b0 < b1 && s.a[a0] == s.b[b0] {
			a0, b0 = a0+1, b0+1
		}
		for a0 < a1 && b0 < b1 && s.a[a1-1] == s.b[b1-1] {
			a1, b1 = a1-1, b1-1
		}
		if a0 == a1 || b0 == b1 || s.budget <= 0 {
			fill(s.chA[a0:a1])
			fill(s.chB[b0:b1])
			return
		}
		x, y := s.split(a0, a1, b0, b1)
		s.compare(a0, x, b0, y)
		a0, b0 = x, y
	}
}

func fill(ch []bool) {
	for i := range ch {
		ch[i] = true
	}
}

// unreached marks a diagonal no path of the current length reaches.
const unreached = -1 << 62

// split returns a point that a shortest path from (a0, b0) to (a1, b1) goes through, other than those two
// corners (the box is not empty and its first and last lines differ on each side). When the budget runs
// out or the search has run its rounds (see minSearchRounds) first, it returns the point, of those both
// searches reached, that is furthest from the corner its search started at; the script stays correct but
// may no longer be shortest.
func (s *search) split(a0, a1, b0, b1 int) (int, int) {
	n, m := a1-a0, b1-b0
	delta := n - m
	// Diagonals are relative to (a0, b0): k runs from -m to n; slot k+m+1 of fwd and bwd.
	off := m + 1
	fwd, bwd := s.fwd[:n+m+3], s.bwd[:n+m+3]
	// Slots are reset as the searches widen (a round reads the diagonals next to its own) rather than all
	// at once, so that a split costs its rounds, not the size of its box.
	reset := func(v []int, k int) {
		if k >= -m-1 && k <= n+1 {
			v[k+off] = unreached
		}
	}
	for _, k := range []int{-m - 1, n + 1} {
		reset(fwd, k)
		reset(bwd, k)
	}
	reset(fwd, -1)
	reset(fwd, 1)
	reset(bwd, delta-1)
	reset(bwd, delta+1)
	fwd[off] = s.snakeDown(a0, a1, b0, b1, 0, 0)
	bwd[delta+off] = s.snakeUp(a0, b0, n, delta)
	for D := 1; ; D++ {
		reset(fwd, D+1)
		reset(fwd, -D-1)
		reset(bwd, delta+D+1)
		reset(bwd, delta-D-1)
		// Forward D-paths, from the highest diagonal down (where two middle snakes are found in the same
		// round, the first wins: this order is the one that most often picks the diff git does).
		for k := parityBelow(min(D, n), D); k >= max(-D, -m); k -= 2 {
			x := unreached
			if down := fwd[k+1+off]; down != unreached && down-k <= m {
				x = down
			}
			if right := fwd[k-1+off]; right != unreached && right+1 <= n && right+1 > x {
				x = right + 1
			}
			if x == unreached {
				fwd[k+off] = unreached
				continue
			}
			x = s.snakeDown(a0, a1, b0, b1, x, k)
			fwd[k+off] = x
			if delta&1 != 0 && k >= delta-(D-1) && k <= delta+(D-1) && bwd[k+off] != unreached && x >= bwd[k+off] {
				return a0 + x, b0 + x - k
			}
		}
		// Backward D-paths, likewise.
		for k := parityBelow(min(delta+D, n), delta+D); k >= max(delta-D, -m); k -= 2 {
			x := unreached
			if up := bwd[k-1+off]; up != unreached && up-k >= 0 {
				x = up
			}
			if left := bwd[k+1+off]; left != unreached && left-1 >= 0 && (x == unreached || left-1 < x) {
				x = left - 1
			}
			if x == unreached {
				bwd[k+off] = unreached
				continue
			}
			x = s.snakeUp(a0, b0, x, k)
			bwd[k+off] = x
			if delta&1 == 0 && k >= -D && k <= D && fwd[k+off] != unreached && fwd[k+off] >= x {
				return a0 + x, b0 + x - k
			}
		}
		s.budget -= 2*D + 2
		if s.budget <= 0 || D >= s.rounds {
			return s.furthest(a0, b0, n, m, delta, D)
		}
	}
}

// snakeDown follows equal lines forward from (x, x-k) relative to (a0, b0) and returns the x it stops at.
func (s *search) snakeDown(a0, a1, b0, b1, x, k int) int {
	start := x
	for a0+x < a1 && b0+x-k < b1 && s.a[a0+x] == s.b[b0+x-k] {
		x++
	}
	s.budget -= x - start
	return x
}

// snakeUp follows equal lines backward from (x, x-k) relative to (a0, b0) and returns the x it stops at.
func (s *search) snakeUp(a0, b0, x, k int) int {
	start := x
	for x > 0 && x-k > 0 && s.a[a0+x-1] == s.b[b0+x-k-1] {
		x--
	}
	s.budget -= start - x
	return x
}

// furthest picks, after the budget ran out in round D, the reached point that has come furthest from its
// search's corner. Every reached point is at least one step from it and none has met the other search, so
// the point is inside the box and both halves are smaller.
func (s *search) furthest(a0, b0, n, m, delta, D int) (int, int) {
	off := m + 1
	fx, fk, fwd := 0, 0, -1 // the forward search's furthest point and its distance from (a0, b0)
	for k := parityBelow(min(D, n), D); k >= max(-D, -m); k -= 2 {
		if x := s.fwd[k+off]; x != unreached && 2*x-k > fwd {
			fx, fk, fwd = x, k, 2*x-k
		}
	}
	bx, bk, bwd := 0, 0, -1 // likewise backward, from (a1, b1)
	for k := parityBelow(min(delta+D, n), delta+D); k >= max(delta-D, -m); k -= 2 {
		if x := s.bwd[k+off]; x != unreached && n+m-(2*x-k) > bwd {
			bx, bk, bwd = x, k, n+m-(2*x-k)
		}
	}
	if fwd > bwd { // on a tie the backward point, as git picks it
		return a0 + fx, b0 + fx - fk
	}
	return a0 + bx, b0 + bx - bk
}

// parityBelow returns k, or k-1 when k and p differ in parity: the diagonals a search reaches in a round
// all have the parity of its last diagonal.
func parityBelow(k, p int) int {
	if (k-p)&1 != 0 {
		return k - 1
	}
	return k
}

// minSearchRounds is the fewest rounds a search gets before it settles for the furthest point it reached;
// texts of n lines in all (once the lines that cannot match are left out) get about sqrt(n) when that is
// more (manyMatches(n+3)), as git bounds the cost of its default algorithm. Texts whose shortest script is
// longer than about twice that (long stretches of repeated lines, rearranged) so get a script that is near
// shortest, found in rounds times lines per split, instead of one that waits for the budget and then
// changes everything.
const minSearchRounds = 256
