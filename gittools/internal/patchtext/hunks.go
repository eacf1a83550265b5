package patchtext

import (
	"bytes"

	"github.com/aymanbagabas/go-udiff/lcs"
)

// writeHunks diffs two texts line by line and writes unified hunks as `git diff` groups and labels them:
// changes closer than 2*ctx lines share a hunk, and each header carries the nearest preceding line of the
// old text that starts with a letter, '_' or '$' (the default hunk header gitattributes(5) documents under
// "Defining a custom hunk-header").
func writeHunks(b *bytes.Buffer, old, new []byte, ctx int) Stat {
	a, z := SplitLines(old), SplitLines(new)
	diffs := lcs.DiffLines(a, z)
	var st Stat
	fn := funcFinder{lines: a, prev: -1}
	for i := 0; i < len(diffs); {
		j := i + 1
		for j < len(diffs) && diffs[j].Start-diffs[j-1].End <= 2*ctx {
			j++
		}
		group := diffs[i:j]
		first, last := group[0], group[len(group)-1]
		s1 := max(first.Start-ctx, 0)
		e1 := min(last.End+ctx, len(a))
		s2 := first.ReplStart - (first.Start - s1)
		e2 := last.ReplEnd + (e1 - last.End)
		hunkHeader(b, s1+1, e1-s1, s2+1, e2-s2, fn.find(s1-1))
		at := s1
		for _, d := range group {
			writeLines(b, ' ', a[at:d.Start])
			writeLines(b, '-', a[d.Start:d.End])
			writeLines(b, '+', z[d.ReplStart:d.ReplEnd])
			st.Deleted += d.End - d.Start
			st.Added += d.ReplEnd - d.ReplStart
			at = d.End
		}
		writeLines(b, ' ', a[at:e1])
		i = j
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

// funcFinder finds hunk-header function lines, remembering the last one found, so that hunks in the same
// function share its header without searching again.
type funcFinder struct {
	lines []string
	prev  int // where the previous search started; searches stop there
	last  string
}

// maxFuncLine is the most bytes of a function line a hunk header carries, as `git diff` cuts them.
const maxFuncLine = 80

func (f *funcFinder) find(start int) string {
	for l := start; l != f.prev && l >= 0 && l < len(f.lines); l-- {
		if s, ok := funcLine(f.lines[l]); ok {
			f.last = s
			break
		}
	}
	f.prev = start
	return f.last
}

// funcLine applies the default hunk-header rule of gitattributes(5): a line that begins with a letter, an
// underscore or a dollar sign names the function; trailing whitespace is dropped.
func funcLine(line string) (string, bool) {
	if line == "" {
		return "", false
	}
	c := line[0]
	if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' || c == '$') {
		return "", false
	}
	if len(line) > maxFuncLine {
		line = line[:maxFuncLine]
	}
	for len(line) > 0 && isSpace(line[len(line)-1]) {
		line = line[:len(line)-1]
	}
	return line, true
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}
