// Package unified writes the hunks of a unified diff as `git diff` writes them: the line diff of
// [linediff], changes closer than twice the context joined into one hunk, hunk headers with the range
// rules of diff(1) and a function line (see [Options.FuncLine]), and "\ No newline at end of file" after
// a last line without one. grove's patches (git_diff, git_show, the review prompts) and edit_file's diffs
// are all written here.
//
//	var b bytes.Buffer
//	b.WriteString("--- a/f\n+++ b/f\n")
//	st := unified.Write(&b, old, new, unified.Options{Context: 3})
package unified

import (
	"bytes"
	"strconv"

	"github.com/grove-mcp/grove/internal/linediff"
)

// Options shape the hunks.
type Options struct {
	Context int // unchanged lines around each change
	// FuncLine says whether a line of the old text names the function (or section) it starts, and the text
	// the hunk header carries for it. nil means git's default rule ([DefaultFuncLine]).
	FuncLine func(line string) (string, bool)
}

// Stat counts the lines a diff adds and deletes.
type Stat struct{ Added, Deleted int }

// Write appends the hunks that turn old into new to b and returns their line counts. It writes nothing
// when the texts are equal.
func Write(b *bytes.Buffer, old, new []byte, opt Options) Stat {
	a, z := SplitLines(old), SplitLines(new)
	diff := linediff.Diff
	if opt.Context == 0 {
		diff = linediff.DiffNoContext // git places changes differently without context
	}
	changes := diff(a, z)
	fn := funcFinder{lines: a, prev: -1, match: opt.FuncLine}
	if fn.match == nil {
		fn.match = DefaultFuncLine
	}
	ctx := opt.Context
	var st Stat
	for i := 0; i < len(changes); {
		j := i + 1
		for j < len(changes) && changes[j].A0-changes[j-1].A1 <= 2*ctx {
			j++
		}
		hunk := changes[i:j]
		first, last := hunk[0], hunk[len(hunk)-1]
		s1 := max(first.A0-ctx, 0)
		e1 := min(last.A1+ctx, len(a))
		s2 := first.B0 - (first.A0 - s1)
		e2 := last.B1 + (e1 - last.A1)
		header(b, s1+1, e1-s1, s2+1, e2-s2, fn.find(s1-1))
		at := s1
		for _, c := range hunk {
			writeLines(b, ' ', a[at:c.A0])
			writeLines(b, '-', a[c.A0:c.A1])
			writeLines(b, '+', z[c.B0:c.B1])
			st.Deleted += c.A1 - c.A0
			st.Added += c.B1 - c.B0
			at = c.A1
		}
		writeLines(b, ' ', a[at:e1])
		i = j
	}
	return st
}

// Labeled returns the diff `git diff` shows for an edit of one text file from its "---" line on, with
// old and new as the labels and three lines of context, or "" when the texts are equal.
func Labeled(old, new, a, b string) string {
	if a == b {
		return ""
	}
	var buf bytes.Buffer
	buf.WriteString("--- " + old + "\n+++ " + new + "\n")
	Write(&buf, []byte(a), []byte(b), Options{Context: 3})
	return buf.String()
}

// Count returns the line counts Write would return, without writing the hunks.
func Count(old, new []byte) Stat {
	var st Stat
	for _, c := range linediff.Diff(SplitLines(old), SplitLines(new)) {
		st.Deleted += c.A1 - c.A0
		st.Added += c.B1 - c.B0
	}
	return st
}

func writeLines(b *bytes.Buffer, prefix byte, lines []string) {
	for _, l := range lines {
		b.WriteByte(prefix)
		b.WriteString(l)
		if len(l) == 0 || l[len(l)-1] != '\n' {
			b.WriteString("\n\\ No newline at end of file\n")
		}
	}
}

// header writes "@@ -s,c +s,c @@ func": a count of 1 is left out, and an empty range names the line
// before it.
func header(b *bytes.Buffer, s1, c1, s2, c2 int, fn string) {
	b.WriteString("@@ -")
	hunkRange(b, s1, c1)
	b.WriteString(" +")
	hunkRange(b, s2, c2)
	b.WriteString(" @@")
	if fn != "" {
		b.WriteByte(' ')
		b.WriteString(fn)
	}
	b.WriteByte('\n')
}

func hunkRange(b *bytes.Buffer, start, count int) {
	if count == 0 {
		start--
	}
	b.WriteString(strconv.Itoa(start))
	if count != 1 {
		b.WriteByte(',')
		b.WriteString(strconv.Itoa(count))
	}
}

// SplitLines splits data after each '\n'; the last line may lack one.
func SplitLines(data []byte) []string {
	if len(data) == 0 {
		return nil
	}
	n := bytes.Count(data, []byte{'\n'})
	if data[len(data)-1] != '\n' {
		n++
	}
	lines := make([]string, 0, n)
	s := string(data)
	for len(s) > 0 {
		i := 0
		for i < len(s) && s[i] != '\n' {
			i++
		}
		if i < len(s) {
			i++
		}
		lines = append(lines, s[:i])
		s = s[i:]
	}
	return lines
}
