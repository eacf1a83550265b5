package fsres

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/grove-mcp/grove/internal/words"
	"github.com/grove-mcp/grove/roots"
)

// fileHits is what one file contributed to a grep.
type fileHits struct {
	rel      string
	lines    []hitLine // matches and their context, in line order
	matches  int
	searched bool
	skipped  bool // binary or too large
}

type hitLine struct {
	n     int // 1-based
	text  string
	match bool
}

// grepFile searches one file; files that vanished or are not regular are
// quietly left out.
func (f *Files) grepFile(ctx context.Context, loc roots.Loc, rel string, q *grepQuery) fileHits {
	h := fileHits{rel: rel}
	if ctx.Err() != nil {
		return h
	}
	file, info, err := loc.OpenFile()
	if err != nil {
		return h
	}
	defer file.Close()
	data, _, err := f.readOpen(file, info)
	if err != nil || looksBinary(data) {
		h.skipped = true
		return h
	}
	h.searched = true
	if !q.re.Match(data) { // most files: one pass, no line splitting
		return h
	}
	h.lines, h.matches = matchLines(data, q)
	return h
}

// matchLines returns the matching lines of data, at most q.max+1, each with
// q.context lines around it.
func matchLines(data []byte, q *grepQuery) ([]hitLine, int) {
	starts := lineStarts(data)
	raw := func(i int) []byte {
		end := len(data)
		if i+1 < len(starts) {
			end = starts[i+1]
		}
		return bytes.TrimSuffix(bytes.TrimSuffix(data[starts[i]:end], []byte{'\n'}), []byte{'\r'})
	}
	var out []hitLine
	shown, after, matches := -1, -1, 0 // last line shown; last after-context line wanted
	flush := func(upto int) {
		for j := shown + 1; j <= min(upto, after); j++ {
			out = append(out, hitLine{n: j + 1, text: clip(raw(j))})
			shown = j
		}
	}
	for i := range starts {
		if matches > q.max { // one more than asked tells the collector there are more
			break
		}
		line := raw(i)
		if !q.re.Match(line) {
			continue
		}
		flush(i - 1)
		for j := max(shown+1, i-q.context); j < i; j++ {
			out = append(out, hitLine{n: j + 1, text: clip(raw(j))})
		}
		out = append(out, hitLine{n: i + 1, text: clip(line), match: true})
		shown, after = i, i+q.context
		matches++
	}
	flush(len(starts) - 1)
	return out, matches
}

// clip shortens a long line to maxGrepLineText bytes, on a rune boundary.
func clip(line []byte) string {
	if len(line) <= maxGrepLineText {
		return string(line)
	}
	cut := maxGrepLineText
	for cut > 0 && !utf8.RuneStart(line[cut]) {
		cut--
	}
	return string(line[:cut]) + "…"
}

// collector commits per-file results in walk order and stops the search once
// q.max matching lines are in.
type collector struct {
	q    *grepQuery
	stop context.CancelFunc

	mu       sync.Mutex // guards all fields below
	pending  map[int]fileHits
	next     int
	files    []fileHits // committed files with hits
	matches  int
	searched int
	skipped  int
	cut      bool
}

func newCollector(q *grepQuery, stop context.CancelFunc) *collector {
	return &collector{q: q, stop: stop, pending: make(map[int]fileHits)}
}

func (c *collector) add(idx int, h fileHits) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.pending[idx] = h
	for {
		h, ok := c.pending[c.next]
		if !ok {
			return
		}
		delete(c.pending, c.next)
		c.next++
		c.commit(h)
	}
}

func (c *collector) commit(h fileHits) {
	if c.cut {
		return
	}
	if h.searched {
		c.searched++
	}
	if h.skipped {
		c.skipped++
	}
	if h.matches == 0 {
		return
	}
	left := c.q.max - c.matches
	if h.matches > left { // matchLines finds one more than max when there is one
		c.cut = true
		c.stop()
		if left == 0 {
			return
		}
		h = truncateHits(h, left, c.q.context)
	}
	c.matches += h.matches
	c.files = append(c.files, h)
}

// truncateHits keeps the first n matches of h and their after-context.
func truncateHits(h fileHits, n, context int) fileHits {
	seen, lastN := 0, 0
	for i, l := range h.lines {
		if seen == n && (l.match || l.n > lastN+context) {
			h.lines = h.lines[:i]
			break
		}
		if l.match {
			seen++
			lastN = l.n
		}
	}
	h.matches = min(h.matches, n)
	return h
}

// result renders what was committed: grep-style lines, "--" between groups.
func (c *collector) result(path string) (GrepResult, string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	res := GrepResult{Path: path, Matches: []GrepMatch{}, Files: c.searched, Skipped: c.skipped, Cut: c.cut}
	var b strings.Builder
	fmt.Fprintf(&b, "%s in %s under %s (%s searched", words.Count(c.matches, "matching line", "matching lines"),
		words.Count(len(c.files), "file", "files"), path, words.Count(c.searched, "file", "files"))
	if c.skipped > 0 {
		fmt.Fprintf(&b, ", %d binary or too large skipped", c.skipped)
	}
	b.WriteString(")\n")
	for fi, h := range c.files {
		for i, l := range h.lines {
			if c.q.context > 0 && (i > 0 && l.n != h.lines[i-1].n+1 || i == 0 && fi > 0) {
				b.WriteString("--\n")
			}
			if l.match {
				fmt.Fprintf(&b, "%s:%d: %s\n", h.rel, l.n, l.text)
				res.Matches = append(res.Matches, GrepMatch{Path: h.rel, Line: l.n, Text: l.text})
			} else {
				fmt.Fprintf(&b, "%s-%d- %s\n", h.rel, l.n, l.text)
			}
		}
	}
	if c.cut {
		fmt.Fprintf(&b, "(cut at %s; raise max_results or narrow path/glob)\n", words.Count(c.q.max, "matching line", "matching lines"))
	}
	return res, b.String()
}
