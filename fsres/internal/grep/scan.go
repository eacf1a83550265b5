package grep

import (
	"bytes"
	"unicode/utf8"
)

// MaxLineText is the most bytes of a line an answer shows.
const MaxLineText = 300

// Mode is what a search reports.
type Mode int

const (
	Content          Mode = iota // matching lines and their context
	FilesWithMatches             // only the paths of files with a match
	Count                        // the number of matching lines per file
)

// Line is one line of an answer: a match or context around one.
type Line struct {
	N     int    // 1-based
	Text  string // without its line end, cut at MaxLineText bytes
	Match bool
}

// scanner searches buffers for one request. Each worker owns one: it keeps
// the finder's state between files, so a scan allocates only the lines it
// reports.
type scanner struct {
	p             *Pattern
	mode          Mode
	before, after int
	limit         int // matching lines after which a file's scan stops
	cur           cursor
	dfa           *dfa   // built on first use
	text          []byte // the texts of a file's lines, back to back: one string per file, not per line
	ends          []int  // where each line's text ends in text
	lines         []Line // the lines of this and earlier files: one array for many files, not one per file
	first         int    // where this file's lines start in lines
}

// linesChunk is how many lines the scanner's array of lines holds when it
// starts a new one: grep `return` on git/git shows 25,000 lines of 1,500
// files, which grew an array per file by doubling (2 MB of garbage a call).
const linesChunk = 4096

// matchLine reports whether a line (without its line feed) holds a match.
func (s *scanner) matchLine(line []byte) bool {
	if s.dfa == nil {
		s.dfa = newDFA(s.p.prog)
	}
	return s.dfa.matchLine(line)
}

// lineCounter numbers lines for offsets that only grow.
type lineCounter struct {
	data []byte
	at   int // an offset …
	n    int // … on this line
}

func (lc *lineCounter) line(ofs int) int {
	lc.n += bytes.Count(lc.data[lc.at:ofs], nl)
	lc.at = ofs
	return lc.n
}

var nl = []byte{'\n'}

// scan searches data, a whole file, and records what it finds in h.
func (s *scanner) scan(data []byte, h *Hits) {
	if s.p.find != nil {
		s.cur.reset(s.p.find, data)
		if s.p.Multiline && s.cur.find(0) < 0 {
			return
		}
	}
	lc := lineCounter{data: data, n: 1}
	s.first = len(s.lines)
	shown, owed := 0, 0 // start of the first line not shown yet; after-context lines still due
	for from := 0; h.Matches < s.limit; {
		ls, le, next, ok := s.next(data, from)
		if !ok {
			break
		}
		from = next
		if ls < shown { // a multiline match that begins on a line already shown
			if le < shown {
				continue
			}
			ls = shown
		}
		if s.mode != Content {
			h.Matches += 1 + bytes.Count(data[ls:le], nl)
			continue
		}
		for owed > 0 && shown < ls {
			shown = s.emit(h, &lc, data, shown, false)
			owed--
		}
		b := ls
		for i := 0; i < s.before && b > shown; i++ {
			b = bytes.LastIndexByte(data[:b-1], '\n') + 1
		}
		for b < ls {
			b = s.emit(h, &lc, data, b, false)
		}
		for b <= le {
			b = s.emit(h, &lc, data, b, true)
			h.Matches++
		}
		shown, owed = b, s.after
	}
	for ; owed > 0 && shown < len(data); owed-- {
		shown = s.emit(h, &lc, data, shown, false)
	}
	s.setTexts(h)
}

// setTexts gives the lines of h their texts, all cut from one string.
func (s *scanner) setTexts(h *Hits) {
	if len(s.ends) == 0 {
		return
	}
	all := string(s.text)
	start := 0
	for i, end := range s.ends {
		s.lines[s.first+i].Text = all[start:end]
		start = end
	}
	s.text, s.ends = s.text[:0], s.ends[:0]
	h.Lines = s.lines[s.first:len(s.lines):len(s.lines)] // full: an append to h.Lines copies
	if cap(s.text) > keptBuffer {
		s.text = nil
	}
}

// emit appends the line starting at ofs to h and returns the start of the
// next line (len(data)+1 past the last).
func (s *scanner) emit(h *Hits, lc *lineCounter, data []byte, ofs int, match bool) int {
	end := len(data)
	if i := bytes.IndexByte(data[ofs:], '\n'); i >= 0 {
		end = ofs + i
	}
	s.text = appendClipped(s.text, bytes.TrimSuffix(data[ofs:end], []byte{'\r'}))
	s.ends = append(s.ends, len(s.text))
	if len(s.lines) == cap(s.lines) {
		// A new array, with this file's lines so far: the old one stays
		// with the files it holds.
		s.lines = append(make([]Line, 0, max(linesChunk, 2*(len(s.lines)-s.first))), s.lines[s.first:]...)
		s.first = 0
	}
	s.lines = append(s.lines, Line{N: lc.line(ofs), Match: match})
	return end + 1
}

// next finds the next matching line at or after from, a line start: its
// start, the end of its last line (a line feed's offset or len(data)), and
// where to go on searching.
func (s *scanner) next(data []byte, from int) (ls, le, next int, ok bool) {
	p := s.p
	switch {
	case p.Multiline:
		return s.nextSpan(data, from)
	case p.shape != nil:
		for at := from; at < len(data); at++ {
			at = s.cur.find(at)
			if at < 0 {
				return 0, 0, 0, false
			}
			if p.shape.matchAt(data, at) {
				ls, le = lineAround(data, from, at) // from is still a line start
				return ls, le, le + 1, true
			}
		}
	case p.find != nil:
		for from < len(data) {
			c := s.cur.find(from)
			if c < 0 {
				return 0, 0, 0, false
			}
			ls, le = lineAround(data, from, c)
			if p.pure || s.matchLine(data[ls:le]) {
				return ls, le, le + 1, true
			}
			from = le + 1
		}
	default:
		for from < len(data) {
			le = len(data)
			if i := bytes.IndexByte(data[from:], '\n'); i >= 0 {
				le = from + i
			}
			if s.matchLine(data[from:le]) {
				return from, le, le + 1, true
			}
			from = le + 1
		}
	}
	return 0, 0, 0, false
}

// lineAround returns the bounds of the line holding offset c, which starts
// at or after from.
func lineAround(data []byte, from, c int) (ls, le int) {
	ls = from
	if i := bytes.LastIndexByte(data[from:c], '\n'); i >= 0 {
		ls = from + i + 1
	}
	le = len(data)
	if i := bytes.IndexByte(data[c:], '\n'); i >= 0 {
		le = c + i
	}
	return ls, le
}

// nextSpan is next for a pattern that may span lines: the lines the next
// match touches.
func (s *scanner) nextSpan(data []byte, from int) (ls, le, next int, ok bool) {
	if from > len(data) {
		return 0, 0, 0, false
	}
	loc := s.p.re.FindIndex(data[from:])
	if loc == nil {
		return 0, 0, 0, false
	}
	ms, me := from+loc[0], from+loc[1]
	if ms == len(data) && (ms == 0 || data[ms-1] == '\n') {
		return 0, 0, 0, false // an empty match past the last line
	}
	last := ms
	if me > ms {
		last = me - 1
	}
	ls, _ = lineAround(data, 0, ms)
	_, le = lineAround(data, 0, last)
	next = me
	if me == ms {
		next = le + 1
	}
	return ls, le, next, true
}

// clip shortens a long line to MaxLineText bytes, on a rune boundary.
func clip(line []byte) string { return string(appendClipped(nil, line)) }

// appendClipped appends line to b, shortened as clip does.
func appendClipped(b, line []byte) []byte {
	if len(line) <= MaxLineText {
		return append(b, line...)
	}
	cut := MaxLineText
	for cut > 0 && !utf8.RuneStart(line[cut]) {
		cut--
	}
	return append(append(b, line[:cut]...), "…"...)
}
