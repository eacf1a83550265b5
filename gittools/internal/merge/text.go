package merge

// The line-level three-way merge of one text file: the changes each side made to the base (two line diffs
// against it) are laid side by side; changes that overlap or touch become one conflict unless both sides made
// the same change, and in the default style each conflict is narrowed to the lines the sides really disagree
// on (see refine).

import (
	"bytes"

	"github.com/grove-mcp/grove/internal/linediff"
)

// Style is how a conflict is written: Merge shows both sides, Diff3 also the base.
type Style int

const (
	StyleMerge Style = iota
	StyleDiff3
)

// markerLen is the width of conflict markers, git's default.
const markerLen = 7

// Labels name the three versions in conflict markers.
type Labels struct{ Base, Ours, Theirs string }

// TextResult is a merged text: Data holds conflict markers where Conflicts > 0.
type TextResult struct {
	Data      []byte
	Conflicts int
}

// region is one piece of the merge's output: lines [b0,b1) of the base replaced by lines [o0,o1) of ours and
// [t0,t1) of theirs. A conflict needs both; otherwise the output is ours or theirs (which is equal, or taken
// from the side that changed).
type region struct {
	b0, b1, o0, o1, t0, t1 int
	conflict               bool
	fromTheirs             bool // the output is theirs' lines (not a conflict)
}

// MergeText merges the changes from base to ours and from base to theirs.
func MergeText(base, ours, theirs []byte, style Style, l Labels) TextResult {
	b, o, t := splitLines(base), splitLines(ours), splitLines(theirs)
	regs := threeWay(b, o, t)
	if style == StyleMerge {
		regs = refine(regs, o, t)
		regs = joinClose(regs)
	}
	return render(regs, b, o, t, style, l, eol(ours, theirs))
}

// splitLines cuts data after each newline; a last line without one is kept as is.
func splitLines(data []byte) []string {
	n := bytes.Count(data, []byte{'\n'})
	out := make([]string, 0, n+1)
	s := string(data)
	for len(s) > 0 {
		i := indexNL(s)
		out = append(out, s[:i])
		s = s[i:]
	}
	return out
}

func indexNL(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			return i + 1
		}
	}
	return len(s)
}

// diffLines is the line diff the merge uses.
func diffLines(a, b []string) []linediff.Change { return linediff.Histogram(a, b) }

// threeWay lays the two sides' changes against the base and returns the regions where something changed,
// in order; unchanged base lines lie between them.
func threeWay(b, o, t []string) []region {
	co, ct := diffLines(b, o), diffLines(b, t)
	var out []region
	i, j := 0, 0
	dO, dT := 0, 0 // ours and theirs line minus base line, before the next change of each side
	for i < len(co) || j < len(ct) {
		var lo, hi int
		switch {
		case j == len(ct) || i < len(co) && co[i].A0 < ct[j].A0:
			lo, hi = co[i].A0, co[i].A1
		case i == len(co) || ct[j].A0 < co[i].A0:
			lo, hi = ct[j].A0, ct[j].A1
		default:
			lo, hi = co[i].A0, max(co[i].A1, ct[j].A1)
		}
		i0, j0 := i, j
		endO, endT := dO, dT
		for {
			grew := false
			for i < len(co) && co[i].A0 <= hi {
				hi = max(hi, co[i].A1)
				endO += (co[i].B1 - co[i].B0) - (co[i].A1 - co[i].A0)
				i, grew = i+1, true
			}
			for j < len(ct) && ct[j].A0 <= hi {
				hi = max(hi, ct[j].A1)
				endT += (ct[j].B1 - ct[j].B0) - (ct[j].A1 - ct[j].A0)
				j, grew = j+1, true
			}
			if !grew {
				break
			}
		}
		r := region{b0: lo, b1: hi, o0: lo + dO, o1: hi + endO, t0: lo + dT, t1: hi + endT}
		switch {
		case j == j0:
			// only ours changed
		case i == i0:
			r.fromTheirs = true
		default:
			r.conflict = !equalLines(o[r.o0:r.o1], t[r.t0:r.t1])
		}
		out = append(out, r)
		dO, dT = endO, endT
	}
	return out
}

func equalLines(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// refine narrows each conflict to the lines where ours and theirs differ: lines both sides have in the same
// place inside a conflict are output once, outside any conflict.
func refine(regs []region, o, t []string) []region {
	var out []region
	for _, r := range regs {
		if !r.conflict || r.o0 == r.o1 || r.t0 == r.t1 {
			out = append(out, r)
			continue
		}
		cs := diffLines(o[r.o0:r.o1], t[r.t0:r.t1])
		for _, c := range cs {
			out = append(out, region{b0: r.b0, b1: r.b1, o0: r.o0 + c.A0, o1: r.o0 + c.A1,
				t0: r.t0 + c.B0, t1: r.t0 + c.B1, conflict: true})
		}
	}
	return out
}

// closeLines is how many unchanged lines may separate two conflicts that are nonetheless shown as one: a
// conflict split by a line or three that both sides share reads better whole.
const closeLines = 3

// joinClose joins conflicts that follow each other with at most closeLines lines between them.
func joinClose(regs []region) []region {
	var out []region
	for _, r := range regs {
		if n := len(out); n > 0 && r.conflict && out[n-1].conflict && r.o0-out[n-1].o1 <= closeLines {
			p := &out[n-1]
			p.b1, p.o1, p.t1 = max(p.b1, r.b1), r.o1, r.t1
			continue
		}
		out = append(out, r)
	}
	return out
}

// eol is the line ending of conflict markers: CRLF when the sides' first line ends so.
func eol(ours, theirs []byte) string {
	for _, d := range [][]byte{ours, theirs} {
		if i := bytes.IndexByte(d, '\n'); i > 0 {
			if d[i-1] == '\r' {
				return "\r\n"
			}
			return "\n"
		}
	}
	return "\n"
}

// render writes the merged text: ours' lines outside the regions (there all three versions agree), each
// region's chosen lines, and markers around conflicts.
func render(regs []region, b, o, t []string, style Style, l Labels, nl string) TextResult {
	var buf bytes.Buffer
	var res TextResult
	pos := 0
	for _, r := range regs {
		writeLines(&buf, o[pos:r.o0])
		pos = r.o1
		switch {
		case r.conflict:
			res.Conflicts++
			marker(&buf, '<', l.Ours, nl)
			writeSide(&buf, o[r.o0:r.o1], nl)
			if style == StyleDiff3 {
				marker(&buf, '|', l.Base, nl)
				writeSide(&buf, b[r.b0:r.b1], nl)
			}
			marker(&buf, '=', "", nl)
			writeSide(&buf, t[r.t0:r.t1], nl)
			marker(&buf, '>', l.Theirs, nl)
		case r.fromTheirs:
			writeLines(&buf, t[r.t0:r.t1])
		default:
			writeLines(&buf, o[r.o0:r.o1])
		}
	}
	writeLines(&buf, o[pos:])
	res.Data = buf.Bytes()
	return res
}

func writeLines(buf *bytes.Buffer, ls []string) {
	for _, s := range ls {
		buf.WriteString(s)
	}
}

// writeSide writes one side of a conflict, ending its last line so the next marker starts a line.
func writeSide(buf *bytes.Buffer, ls []string, nl string) {
	writeLines(buf, ls)
	if n := len(ls); n > 0 && ls[n-1][len(ls[n-1])-1] != '\n' {
		buf.WriteString(nl)
	}
}

func marker(buf *bytes.Buffer, c byte, label, nl string) {
	for range markerLen {
		buf.WriteByte(c)
	}
	if label != "" {
		buf.WriteByte(' ')
		buf.WriteString(label)
	}
	buf.WriteString(nl)
}
