package linediff

// The indent heuristic scores a seam (a split between two lines, where a group of changes begins or ends)
// by what surrounds it: blank lines next to it are good places to cut, and so is a line whose indentation
// says a block starts or ends there. The weights are the ones Michael Haggerty fitted on a corpus of
// hand-rated diff sliders when he designed git's heuristic and described its scoring; using the same ones
// places groups where `git diff` does.

// split describes the surroundings of the seam just above line at.
type split struct {
	eof        bool // the seam is at the end of the text
	indent     int  // indentation of the line below the seam; -1: blank or none
	preBlank   int  // blank lines just above the seam
	preIndent  int  // indentation of the first non-blank line above; -1: none
	postBlank  int  // blank lines below the line below the seam
	postIndent int  // indentation of the first non-blank line below that; -1: none
}

const (
	maxIndent = 200 // indentation counts up to this
	maxBlanks = 20  // blank lines counted on each side; more count as this many, above a line of indent 0
)

// Weights of the heuristic.
const (
	startOfFilePenalty              = 1
	endOfFilePenalty                = 21
	totalBlankWeight                = -30
	postBlankWeight                 = 6
	relativeIndentPenalty           = -4
	relativeIndentWithBlankPenalty  = 10
	relativeOutdentPenalty          = 24
	relativeOutdentWithBlankPenalty = 17
	relativeDedentPenalty           = 23
	relativeDedentWithBlankPenalty  = 17
	indentWeight                    = 60
)

// lineIndent returns the width of a line's leading white space, a tab reaching the next multiple of 8,
// capped at maxIndent, or -1 for a line of white space only.
func lineIndent(line string) int {
	w := 0
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case ' ':
			w++
		case '\t':
			w += 8 - w%8
		case '\n', '\r', '\f', '\v':
		default:
			return w
		}
		if w >= maxIndent {
			return maxIndent
		}
	}
	return -1
}

func measure(t Text, at int) split {
	m := split{indent: -1, preIndent: -1, postIndent: -1}
	if at >= t.Len() {
		m.eof = true
	} else {
		m.indent = lineIndent(t.lines[at])
	}
	for i := at - 1; i >= 0; i-- {
		if w := lineIndent(t.lines[i]); w >= 0 {
			m.preIndent = w
			break
		}
		if m.preBlank++; m.preBlank == maxBlanks {
			m.preIndent = 0
			break
		}
	}
	for i := at + 1; i < t.Len(); i++ {
		if w := lineIndent(t.lines[i]); w >= 0 {
			m.postIndent = w
			break
		}
		if m.postBlank++; m.postBlank == maxBlanks {
			m.postIndent = 0
			break
		}
	}
	return m
}

// score sums the seams of one placement: penalty lower is better, and so is less indentation, which
// weighs more than any penalty difference of up to indentWeight.
type score struct{ indent, penalty int }

func (s *score) add(m split) {
	if m.preIndent == -1 && m.preBlank == 0 {
		s.penalty += startOfFilePenalty
	}
	if m.eof {
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
	blanks := totalBlank != 0
	s.indent += indent
	switch {
	case indent == -1 || m.preIndent == -1 || indent == m.preIndent:
	case indent > m.preIndent:
		s.penalty += pick(blanks, relativeIndentWithBlankPenalty, relativeIndentPenalty)
	case m.postIndent != -1 && m.postIndent > indent:
		s.penalty += pick(blanks, relativeOutdentWithBlankPenalty, relativeOutdentPenalty)
	default:
		s.penalty += pick(blanks, relativeDedentWithBlankPenalty, relativeDedentPenalty)
	}
}

func pick(c bool, yes, no int) int {
	if c {
		return yes
	}
	return no
}

// cmp is negative when s is better than u.
func (s score) cmp(u score) int {
	c := 0
	switch {
	case s.indent > u.indent:
		c = 1
	case s.indent < u.indent:
		c = -1
	}
	return indentWeight*c + s.penalty - u.penalty
}
