package fsres

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unsafe"

	"github.com/grove-mcp/grove/fsres/internal/grep"
	"github.com/grove-mcp/grove/internal/jsonenc"
	"github.com/grove-mcp/grove/internal/panics"
	"github.com/grove-mcp/grove/internal/words"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// grepAnswer renders a search: a summary line, then grep-style lines
// (file:line: text, context as file-line- text, "--" between groups),
// paths, or path:count lines. A content answer comes with its text's JSON
// string, made along with out's JSON (renderContent); other answers with
// none.
func (f *Files) grepAnswer(base string, req grep.Request, res *grep.Result) (out GrepResult, text string, quoted *jsonenc.Handoff, err error) {
	out = GrepResult{Path: base, Matches: []GrepMatch{}, Total: res.Matches, Files: res.Searched,
		Skipped: res.Binary + res.TooLarge, Cut: res.Cut}
	var b strings.Builder
	switch req.Mode {
	case grep.FilesWithMatches:
		fmt.Fprintf(&b, "%s with matches under %s", words.Count(len(res.Files), "file", "files"), base)
	default:
		fmt.Fprintf(&b, "%s in %s under %s", words.Count(res.Matches, "matching line", "matching lines"),
			words.Count(len(res.Files), "file", "files"), base)
	}
	fmt.Fprintf(&b, " (%s searched", words.Count(res.Searched, "file", "files"))
	if res.Binary > 0 {
		fmt.Fprintf(&b, ", %d binary skipped", res.Binary)
	}
	if res.TooLarge > 0 {
		fmt.Fprintf(&b, ", %d above the %s limit skipped", res.TooLarge, byteSize(f.opts.MaxReadBytes))
	}
	b.WriteString(")\n")
	var cut string
	if res.Cut {
		what := words.Count(req.Max, "matching line", "matching lines")
		if req.Mode != grep.Content {
			what = words.Count(req.Max, "file", "files")
		}
		cut = fmt.Sprintf("(cut at %s; raise max_results or narrow path/glob/type)\n", what)
	}
	if req.Mode == grep.Content {
		text, quoted, err := renderContent(b.String(), cut, &out, res, req.Before+req.After > 0)
		if err != nil {
			return GrepResult{}, "", nil, err
		}
		return out, text, quoted, nil
	}
	for _, h := range res.Files {
		switch req.Mode {
		case grep.FilesWithMatches:
			fmt.Fprintf(&b, "%s\n", h.Rel)
			out.Listed = append(out.Listed, h.Rel)
		case grep.Count:
			fmt.Fprintf(&b, "%s:%d\n", h.Rel, h.Matches)
			out.Counts = append(out.Counts, GrepCount{Path: h.Rel, Count: h.Matches})
		}
	}
	b.WriteString(cut)
	return out, b.String(), nil, nil
}

// quotedText is a text content whose JSON string was made along with it,
// for a writer that splices JSON (server/stdio's) to take instead of
// escaping the text again. Encoded any other way it is the TextContent it
// holds.
type quotedText struct {
	*mcp.TextContent
	quoted *jsonenc.Handoff // the JSON string of Text
}

// QuotedText returns the content and its text's JSON string, which is the
// caller's to release (nil once taken).
func (t *quotedText) QuotedText() (*mcp.TextContent, []byte) {
	return t.TextContent, t.quoted.Take()
}

// renderSplit is the fewest lines of a content answer worth rendering in
// two halves, the second on another goroutine.
const renderSplit = 4096

// renderContent renders the lines of a content answer between head and
// tail, three ways at once: the text, the text as a JSON string (quoted),
// and out's JSON (out.pre), with out.Matches. Each line's text is escaped
// once, for both JSON forms. Escaping it twice, the matches encoded in a
// pass of their own, took 31 % of the CPU of grep `return` on a 1 GB tree
// (516,495 lines; about 220 ms a call); this takes 24 % (about 160 ms),
// with jsonenc pooling its buffers (perf, 10 calls each). A large answer is
// rendered in two halves at once, the second on another goroutine.
func renderContent(head, tail string, out *GrepResult, res *grep.Result, context bool) (string, *jsonenc.Handoff, error) {
	lines := 0
	for _, h := range res.Files {
		lines += len(h.Lines)
	}
	out.Matches = make([]GrepMatch, res.Matches) // a file's Matches counts its lines marked Match
	// The second half's first file, and the matches before it.
	cut, cutMatches := len(res.Files), res.Matches
	if lines >= renderSplit {
		before := 0
		cutMatches = 0
		for i, h := range res.Files {
			if before >= lines/2 {
				cut = i
				break
			}
			before += len(h.Lines)
			cutMatches += h.Matches
		}
	}
	// The text's two halves go straight to their places in it: its size is
	// known to the byte.
	n1, n2 := textSize(res.Files[:cut], 0, context), textSize(res.Files[cut:], cut, context)
	at2 := len(head) + n1
	raw := make([]byte, at2+n2+len(tail))
	copy(raw, head)
	copy(raw[at2+n2:], tail)

	first := rendering{raw: raw[:len(head):at2]}
	first.quoted = jsonenc.AppendEscaped(append(jsonenc.Buffer(), '"'), head)
	first.json = append(out.appendHead(jsonenc.Buffer()), '[')
	first.from = len(first.json)
	second := rendering{raw: raw[at2 : at2 : at2+n2]}
	done := make(chan error, 1)
	if cut < len(res.Files) {
		go func() {
			var err error
			defer func() { done <- err }()
			defer panics.Catch(&err)
			second.quoted, second.json = jsonenc.Buffer(), jsonenc.Buffer()
			second.lines(out.Matches[cutMatches:], res.Files[cut:], cut, context)
		}()
	} else {
		done <- nil
	}
	first.lines(out.Matches[:cutMatches:cutMatches], res.Files[:cut], 0, context)
	if err := <-done; err != nil {
		jsonenc.Release(first.quoted)
		jsonenc.Release(first.json)
		return "", nil, err
	}
	defer jsonenc.Release(second.quoted)
	defer jsonenc.Release(second.json)

	if len(first.raw) != at2 || len(second.raw) != n2 || at2 > 0 && &first.raw[0] != &raw[0] || n2 > 0 && &second.raw[0] != &raw[at2] {
		// textSize and the rendering disagree (a bug): no part of raw is trusted.
		return "", nil, fmt.Errorf("grep: the answer's text is %d+%d bytes, %d+%d expected", len(first.raw)-len(head), len(second.raw), n1, n2)
	}
	q := append(first.quoted, second.quoted...)
	q = append(jsonenc.AppendEscaped(q, tail), '"')
	j := first.json
	if len(j) > first.from && len(second.json) > 0 {
		j = append(j, ',')
	}
	j = out.appendTail(append(append(j, second.json...), ']'))
	out.pre = jsonenc.NewHandoff(j)
	// raw is never written again: the text is its bytes, not a copy.
	return unsafe.String(unsafe.SliceData(raw), len(raw)), jsonenc.NewHandoff(q), nil
}

// textSize returns the bytes the text of files takes, the first of which
// is the answer's file number first (rendering.lines writes exactly them).
func textSize(files []grep.Hits, first int, context bool) int {
	n := 0
	for i, h := range files {
		for j, l := range h.Lines {
			if context && groupStarts(h, j, first+i) {
				n += len("--\n")
			}
			// path, separator, line number, separator and space, text, newline
			n += len(h.Rel) + 1 + decimalLen(l.N) + 2 + len(l.Text) + 1
		}
	}
	return n
}

// groupStarts reports whether line j of h, the answer's file number file,
// starts a group of context lines other than the answer's first: a "--"
// line goes before it.
func groupStarts(h grep.Hits, j, file int) bool {
	if j == 0 {
		return file > 0
	}
	return h.Lines[j].N != h.Lines[j-1].N+1
}

// decimalLen returns how many digits n has (n ≥ 0).
func decimalLen(n int) int {
	d := 1
	for ; n >= 10; n /= 10 {
		d++
	}
	return d
}

// rendering is one half of a content answer being rendered.
type rendering struct {
	raw    []byte // the text; its room is exactly what it will take
	quoted []byte // the text escaped as the inside of a JSON string
	json   []byte // the matches' JSON, comma-separated
	from   int    // where the matches begin in json
}

// lines renders files, the first of which is the answer's file number
// first, and puts their matches in ms, which has room for exactly them.
func (r *rendering) lines(ms []GrepMatch, files []grep.Hits, first int, context bool) {
	size := 0
	for _, h := range files {
		for _, l := range h.Lines {
			size += len(h.Rel) + len(l.Text) + 24 // separators, line number, "--" lines
		}
	}
	r.quoted = slices.Grow(r.quoted, size+size/8)
	r.json = slices.Grow(r.json, size+size/2)
	var path []byte // the file's path as a JSON string
	k := 0
	for i, h := range files {
		path = jsonenc.AppendString(path[:0], h.Rel)
		inner := path[1 : len(path)-1]
		for j, l := range h.Lines {
			if context && groupStarts(h, j, first+i) {
				r.raw = append(r.raw, "--\n"...)
				r.quoted = append(r.quoted, `--\n`...)
			}
			sep := byte('-')
			if l.Match {
				sep = ':'
			}
			r.raw = append(r.raw, h.Rel...)
			r.raw = append(r.raw, sep)
			r.raw = strconv.AppendInt(r.raw, int64(l.N), 10)
			r.raw = append(r.raw, sep, ' ')
			r.raw = append(r.raw, l.Text...)
			r.raw = append(r.raw, '\n')

			r.quoted = append(r.quoted, inner...)
			r.quoted = append(r.quoted, sep)
			r.quoted = strconv.AppendInt(r.quoted, int64(l.N), 10)
			r.quoted = append(r.quoted, sep, ' ')
			start := len(r.quoted)
			r.quoted = jsonenc.AppendEscaped(r.quoted, l.Text)
			end := len(r.quoted)
			r.quoted = append(r.quoted, `\n`...)
			if !l.Match {
				continue
			}
			ms[k] = GrepMatch{Path: h.Rel, Line: l.N, Text: l.Text}
			k++
			if len(r.json) > r.from {
				r.json = append(r.json, ',')
			}
			r.json = appendMatchHead(r.json, path, l.N)
			r.json = append(append(r.json, r.quoted[start:end]...), `"}`...)
		}
	}
}

// TakeJSON returns r's JSON when it was made with its text (renderContent),
// once (jsonenc.Premarshaled).
func (r GrepResult) TakeJSON() []byte { return r.pre.Take() }

// AppendJSON appends r's JSON, the bytes encoding/json writes for it
// (jsonenc.Appender): the compiled encoder spent 375 ns a match in
// reflection, 9 ms for grep `return` on git/git after the search was
// done. A file's path is escaped once for all its matches, and a long
// list of matches is encoded in two halves on two cores.
func (r GrepResult) AppendJSON(dst []byte) ([]byte, error) {
	dst = r.appendHead(dst)
	if r.Matches == nil {
		dst = append(dst, "null"...)
	} else {
		dst = append(dst, '[')
		dst, _ = jsonenc.AppendHalves(dst, len(r.Matches), func(dst []byte, from, to int) ([]byte, error) {
			return appendMatches(dst, r.Matches[from:to]), nil
		})
		dst = append(dst, ']')
	}
	return r.appendTail(dst), nil
}

// appendHead appends r's JSON up to its matches' value.
func (r GrepResult) appendHead(dst []byte) []byte {
	dst = append(dst, `{"path":`...)
	dst = jsonenc.AppendString(dst, r.Path)
	return append(dst, `,"matches":`...)
}

// appendTail appends r's JSON after its matches' value.
func (r GrepResult) appendTail(dst []byte) []byte {
	if len(r.Listed) > 0 {
		dst = append(dst, `,"files":[`...)
		for i, p := range r.Listed {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = jsonenc.AppendString(dst, p)
		}
		dst = append(dst, ']')
	}
	if len(r.Counts) > 0 {
		dst = append(dst, `,"counts":[`...)
		for i, c := range r.Counts {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, `{"path":`...)
			dst = jsonenc.AppendString(dst, c.Path)
			dst = append(dst, `,"count":`...)
			dst = append(strconv.AppendInt(dst, int64(c.Count), 10), '}')
		}
		dst = append(dst, ']')
	}
	dst = append(dst, `,"total_matches":`...)
	dst = strconv.AppendInt(dst, int64(r.Total), 10)
	dst = append(dst, `,"files_searched":`...)
	dst = strconv.AppendInt(dst, int64(r.Files), 10)
	if r.Skipped != 0 {
		dst = append(dst, `,"files_skipped":`...)
		dst = strconv.AppendInt(dst, int64(r.Skipped), 10)
	}
	if r.Cut {
		dst = append(dst, `,"cut":true`...)
	}
	return append(dst, '}')
}

// appendMatches appends ms, comma-separated. The matches of one file
// follow each other and share its path: it is escaped once for them.
func appendMatches(dst []byte, ms []GrepMatch) []byte {
	size := 0
	for _, m := range ms {
		size += len(m.Path) + len(m.Text) + 40
	}
	dst = slices.Grow(dst, size)
	var path string
	var pathJSON []byte
	for i, m := range ms {
		if i > 0 {
			dst = append(dst, ',')
		}
		if i == 0 || m.Path != path {
			path, pathJSON = m.Path, jsonenc.AppendString(pathJSON[:0], m.Path)
		}
		dst = appendMatchHead(dst, pathJSON, m.Line)
		dst = append(jsonenc.AppendEscaped(dst, m.Text), `"}`...)
	}
	return dst
}

// appendMatchHead appends a match's JSON up to its text's escaped bytes:
// its path, already a JSON string, its line, and the text's opening quote.
func appendMatchHead(dst, path []byte, line int) []byte {
	dst = append(dst, `{"path":`...)
	dst = append(dst, path...)
	dst = append(dst, `,"line":`...)
	dst = strconv.AppendInt(dst, int64(line), 10)
	return append(dst, `,"text":"`...)
}
