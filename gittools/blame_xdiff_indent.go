// Derived from git's xdiff (LibXDiff by Davide Libenzi, as modified in git), which is licensed under the
// GNU LGPL 2.1 or later. grove's own license is not settled; see docs/rough-edges.md before relicensing.

package gittools

// The indent heuristic of xdiff (xdiffi.c: measure_split, score_add_split, score_cmp), with its weights.
const (
	startOfFilePenalty             = 1
	endOfFilePenalty               = 21
	totalBlankWeight               = -30
	postBlankWeight                = 6
	relativeIndentPenalty          = -4
	relativeIndentWithBlankPenalty = 10
	relativeOutdentPenalty         = 24
	relativeOutdentWithBlank       = 17
	relativeDedentPenalty          = 23
	relativeDedentWithBlank        = 17
	indentWeight                   = 60
)

// splitMeasure describes a hypothetical split of a file above one line.
type splitMeasure struct {
	endOfFile                   bool
	indent, preBlank, preIndent int
	postBlank, postIndent       int
}

type splitScore struct{ effectiveIndent, penalty int }

// lineIndent is get_indent: leading whitespace width with tabs to 8, -1 for a blank line.
func lineIndent(l string) int {
	ret := 0
	for i := 0; i < len(l); i++ {
		c := l[i]
		if !isSpace(c) {
			return ret
		}
		if c == ' ' {
			ret++
		} else if c == '\t' {
			ret += 8 - ret%8
		}
		if ret >= xdlMaxIndent {
			return xdlMaxIndent
		}
	}
	return -1
}

func measureSplit(f *xdFile, split int) splitMeasure {
	m := splitMeasure{indent: -1, preIndent: -1, postIndent: -1}
	if split >= len(f.lines) {
		m.endOfFile = true
	} else {
		m.indent = lineIndent(f.lines[split])
	}
	for i := split - 1; i >= 0; i-- {
		if m.preIndent = lineIndent(f.lines[i]); m.preIndent != -1 {
			break
		}
		if m.preBlank++; m.preBlank == xdlMaxBlanks {
			m.preIndent = 0
			break
		}
	}
	for i := split + 1; i < len(f.lines); i++ {
		if m.postIndent = lineIndent(f.lines[i]); m.postIndent != -1 {
			break
		}
		if m.postBlank++; m.postBlank == xdlMaxBlanks {
			m.postIndent = 0
			break
		}
	}
	return m
}

func (s *splitScore) add(m splitMeasure) {
	if m.preIndent == -1 && m.preBlank == 0 {
		s.penalty += startOfFilePenalty
	}
	if m.endOfFile {
		s.penalty += endOfFilePenalty
	}
	postBlank := 0
	if m.indent == -1 {
		postBlank = 1 + m.postBlank
	}
	totalBlank := m.preBlank + postBlank
	s.penalty += totalBlankWeight*totalBlank + postBlankWeight*postBlank
	indent := m.indent
	if indent == -1 {
		indent = m.postIndent
	}
	anyBlanks := totalBlank != 0
	s.effectiveIndent += indent
	switch {
	case indent == -1, m.preIndent == -1, indent == m.preIndent:
	case indent > m.preIndent:
		s.penalty += pick(anyBlanks, relativeIndentWithBlankPenalty, relativeIndentPenalty)
	case m.postIndent != -1 && m.postIndent > indent:
		s.penalty += pick(anyBlanks, relativeOutdentWithBlank, relativeOutdentPenalty)
	default:
		s.penalty += pick(anyBlanks, relativeDedentWithBlank, relativeDedentPenalty)
	}
}

func (s splitScore) cmp(o splitScore) int {
	c := 0
	if s.effectiveIndent > o.effectiveIndent {
		c = 1
	} else if s.effectiveIndent < o.effectiveIndent {
		c = -1
	}
	return indentWeight*c + s.penalty - o.penalty
}

func pick(cond bool, yes, no int) int {
	if cond {
		return yes
	}
	return no
}
