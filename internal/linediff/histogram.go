package linediff

// The line diff of merges: a histogram diff (what git merges with, git-merge(1), "ort" strategy options),
// then each span of changed lines slid to its final place. A histogram diff anchors the two texts on the
// longest run of equal lines containing the line that occurs least often in the old text, and repeats on each
// side of that run; where every common line is too frequent it falls back to a shortest-edit-script diff.

// maxOccurrences is how often a line may occur in the old text and still anchor a histogram diff.
const maxOccurrences = 64

type histogram struct {
	a, b     []int32 // line ids
	chA, chB []bool
	rarity   int // occurrences of the rarest line of the last anchor found
}

// lineIDs numbers the lines of a and b, equal lines alike.
func lineIDs(a, b []string) ([]int32, []int32) {
	ids := make(map[string]int32, len(a))
	num := func(ls []string) []int32 {
		out := make([]int32, len(ls))
		for i, l := range ls {
			id, ok := ids[l]
			if !ok {
				id = int32(len(ids))
				ids[l] = id
			}
			out[i] = id
		}
		return out
	}
	return num(a), num(b)
}

// Histogram returns the changes that turn a into b as git's histogram diff finds them (git-diff(1)
// --diff-algorithm=histogram, without the indent heuristic), which is what git merges with.
func Histogram(a, b []string) []Change {
	h := &histogram{chA: make([]bool, len(a)), chB: make([]bool, len(b))}
	h.a, h.b = lineIDs(a, b)
	h.diff(0, len(a), 0, len(b), a, b)
	slideMerge(h.a, h.chA, h.chB)
	slideMerge(h.b, h.chB, h.chA)
	return changes(h.chA, h.chB)
}

// diff marks the changed lines of a[a0:a1] and b[b0:b1].
func (h *histogram) diff(a0, a1, b0, b1 int, la, lb []string) {
	for {
		if a0 == a1 || b0 == b1 {
			markRange(h.chA, a0, a1)
			markRange(h.chB, b0, b1)
			return
		}
		as, ae, bs, be, common := h.anchor(a0, a1, b0, b1)
		switch {
		case !common:
			markRange(h.chA, a0, a1)
			markRange(h.chB, b0, b1)
			return
		case as == ae || h.rarity > maxOccurrences:
			for _, c := range Diff(la[a0:a1], lb[b0:b1]) {
				markRange(h.chA, a0+c.A0, a0+c.A1)
				markRange(h.chB, b0+c.B0, b0+c.B1)
			}
			return
		}
		h.diff(a0, as, b0, bs, la, lb)
		a0, b0 = ae, be
	}
}

func markRange(ch []bool, lo, hi int) {
	for i := lo; i < hi; i++ {
		ch[i] = true
	}
}

// anchor finds the run of equal lines a[as:ae] == b[bs:be] to split on: among runs through a line of b that
// occurs in a[a0:a1] at most as often as the best run's rarest line, the longer one or the one with a rarer
// line wins. common reports whether the ranges share any line; as == ae then means every shared line was too
// frequent.
func (h *histogram) anchor(a0, a1, b0, b1 int) (as, ae, bs, be int, common bool) {
	pos := make(map[int32][]int, a1-a0)
	for i := a0; i < a1; i++ {
		pos[h.a[i]] = append(pos[h.a[i]], i)
	}
	best := maxOccurrences + 1
	as, ae = a0, a0
	for j := b0; j < b1; {
		next := j + 1
		occ := pos[h.b[j]]
		if len(occ) > 0 {
			common = true
		}
		if len(occ) > best {
			j = next
			continue
		}
		for k := 0; k < len(occ); {
			i := occ[k]
			s, t, bj := i, i+1, j
			for s > a0 && bj > b0 && h.a[s-1] == h.b[bj-1] {
				s, bj = s-1, bj-1
			}
			u := j + 1
			for t < a1 && u < b1 && h.a[t] == h.b[u] {
				t, u = t+1, u+1
			}
			if next < u {
				next = u
			}
			rarest := len(occ)
			for x := s; x < t && rarest > 1; x++ {
				rarest = min(rarest, len(pos[h.a[x]]))
			}
			if ae-as < t-s || rarest < best {
				as, ae, bs, be, best = s, t, bj, u, rarest
			}
			for k < len(occ) && occ[k] < t {
				k++
			}
		}
		j = next
	}
	h.rarity = best
	return as, ae, bs, be, common
}

// slideMerge slides each span of changed lines of one text (ids, ch; the other text's flags are other) as far
// down as equal lines allow, or, when on the way it can sit next to a change in the other text, there, so
// that a replacement reads as one change.
func slideMerge(ids []int32, ch, other []bool) {
	n, no := len(ch), len(other)
	g := span{0, runEnd(ch, 0)}
	o := span{0, runEnd(other, 0)}
	for {
		if g.end != g.start {
			var size, earliest int
			endMatch := -1
			for {
				size = g.end - g.start
				for g.start > 0 && ids[g.start-1] == ids[g.end-1] {
					ch[g.start-1], ch[g.end-1] = true, false
					g.start, g.end = g.start-1, g.end-1
					for g.start > 0 && ch[g.start-1] {
						g.start--
					}
					o = o.prev(other)
				}
				earliest = g.end
				if o.end > o.start {
					endMatch = g.end
				}
				for g.end < n && ids[g.start] == ids[g.end] {
					ch[g.start], ch[g.end] = false, true
					g.start, g.end = g.start+1, g.end+1
					for g.end < n && ch[g.end] {
						g.end++
					}
					o = o.next(other, no)
					if o.end > o.start {
						endMatch = g.end
					}
				}
				if size == g.end-g.start {
					break
				}
			}
			if g.end != earliest && endMatch >= 0 {
				for o.end == o.start {
					ch[g.start-1], ch[g.end-1] = true, false
					g.start, g.end = g.start-1, g.end-1
					o = o.prev(other)
				}
			}
		}
		if g.end >= n {
			return
		}
		g = g.next(ch, n)
		o = o.next(other, no)
	}
}

// span is a run of changed lines [start, end), possibly empty, between two unchanged lines.
type span struct{ start, end int }

func runEnd(ch []bool, i int) int {
	for i < len(ch) && ch[i] {
		i++
	}
	return i
}

func (g span) next(ch []bool, n int) span {
	s := g.end + 1
	return span{s, runEnd(ch, min(s, n))}
}

func (g span) prev(ch []bool) span {
	e := g.start - 1
	s := e
	for s > 0 && ch[s-1] {
		s--
	}
	return span{s, e}
}
