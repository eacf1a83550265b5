// Package linediff is grove's one line diff: git_diff's and git_show's patches, the review prompts,
// edit_file's diffs, blame and three-way merge all use it. It finds which lines to delete from one text
// and which to insert from another to turn the first into the second, and chooses among equally good
// answers the one `git diff` shows: a shortest edit script by the divide-and-conquer, linear-space
// refinement of the algorithm in E. W. Myers, "An O(ND) Difference Algorithm and Its Variations"
// (Algorithmica 1, 1986), with git's handling of lines that cannot or should not be aligned, a bound on
// the search past which a diff stays correct but stops being shortest (as git-diff(1)'s default algorithm
// degrades without --minimal), and git's placement of each group of changed lines, with the indent
// heuristic (see [Differ.Diff]). It also owns the similarity measure of rename detection ([Similarity]).
//
//	var d linediff.Differ
//	for _, c := range d.Diff(d.Text(old), d.Text(new)) {
//		// old[c.A0:c.A1] became new[c.B0:c.B1]
//	}
package linediff

// Change replaces lines [A0, A1) of the old text by lines [B0, B1) of the new one; either may be empty.
type Change struct{ A0, A1, B0, B1 int }

// Text is a text's lines as a [Differ] sees them: each line gets an id, equal for equal lines, the first
// time a diff needs to compare it with lines other than those at the same distance from either end.
type Text struct {
	lines []string
	ids   []int32 // -1: not numbered yet
}

// Len returns the number of lines.
func (t Text) Len() int { return len(t.lines) }

// Differ diffs texts it prepared itself (see [Differ.Text]). Lines are numbered in one table shared by
// all its texts, so each line is hashed at most once however often its text is diffed (blame diffs each
// version of a file against its neighbours), and only where the texts differ. It keeps scratch space
// between calls and is not safe for concurrent use. The zero value is ready to use.
type Differ struct {
	Budget int // work units per Diff before the script stops being shortest; 0 means [DefaultBudget]

	ids   map[string]int32
	count []int32 // per id, scratch for discarding lines with no match
	v     []int   // furthest x per diagonal of the forward and backward searches, scratch
}

// DefaultBudget bounds the work of one Diff (a unit is a diagonal visited or a pair of lines compared):
// about 0.15 s on a 2020s server core, reached by texts of ten thousand lines that have little in common
// but many equal lines. Past it the remaining differences are reported in larger blocks.
const DefaultBudget = 1 << 24

// Text prepares lines for d; the lines are not copied and must not change.
func (d *Differ) Text(lines []string) Text {
	ids := make([]int32, len(lines))
	for i := range ids {
		ids[i] = -1
	}
	return Text{lines: lines, ids: ids}
}

// number gives ids to lines [lo, hi) of t.
func (d *Differ) number(t Text, lo, hi int) []int32 {
	if d.ids == nil {
		d.ids = make(map[string]int32)
	}
	for i := lo; i < hi; i++ {
		if t.ids[i] >= 0 {
			continue
		}
		id, ok := d.ids[t.lines[i]]
		if !ok {
			id = int32(len(d.ids))
			d.ids[t.lines[i]] = id
		}
		t.ids[i] = id
	}
	return t.ids[lo:hi]
}

// Diff returns the changes that turn lines a into lines b, in order.
func Diff(a, b []string) []Change {
	var d Differ
	return d.Diff(d.Text(a), d.Text(b))
}

// Diff returns the changes that turn a into b, in order; both must come from d.Text.
//
// The script is shortest (fewest lines deleted plus inserted) unless the search bound or the budget is
// reached, or a common line stranded among unmatched ones is left out as git leaves it out (see
// matchable). Where several shortest scripts exist, the one found is the one git's search finds, and each
// group of changed lines is then placed as git places it: next to a change on the other side when one is
// in reach (one replacement instead of a deletion and an insertion), otherwise where the indent heuristic
// scores its edges best (see compact.go).
func (d *Differ) Diff(a, b Text) []Change {
	chA, chB := make([]bool, a.Len()), make([]bool, b.Len())
	d.mark(a, b, chA, chB)
	compact(a, chA, chB)
	compact(b, chB, chA)
	return changes(chA, chB)
}

// changes lists the runs of changed lines, pairing the runs of a and b that sit between the same
// unchanged lines.
func changes(chA, chB []bool) []Change {
	var out []Change
	i, j := 0, 0
	for i < len(chA) || j < len(chB) {
		if i < len(chA) && !chA[i] && j < len(chB) && !chB[j] {
			i, j = i+1, j+1
			continue
		}
		c := Change{A0: i, B0: j}
		for i < len(chA) && chA[i] {
			i++
		}
		for j < len(chB) && chB[j] {
			j++
		}
		c.A1, c.B1 = i, j
		if c.A0 == c.A1 && c.B0 == c.B1 {
			break // unbalanced flags: cannot happen for flags from mark and slideGroups
		}
		out = append(out, c)
	}
	return out
}
