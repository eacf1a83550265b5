package fsres

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/grove-mcp/grove/internal/words"
)

// lineWindow is the part of a file read_file asks for: lines from..to
// (1-based, to == 0 meaning the end), or the last tail lines.
type lineWindow struct {
	from, to, tail int
}

// streamed is what streamLines found.
type streamed struct {
	content     []byte
	total       int // lines in the file
	first, last int // lines in content
}

// streamLines reads r (a file too large to load whole) once, keeping only the
// lines of w and counting all of them, so read_file can page through files of
// any size in memory bounded by limit.
func streamLines(ctx context.Context, r io.Reader, w lineWindow, limit int64) (streamed, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	var out streamed
	var kept bytes.Buffer
	ring := tailRing{max: w.tail}
	var cur []byte // the line being read, for tail
	open := false  // inside a line whose start was already counted
	for {
		chunk, err := br.ReadSlice('\n')
		if len(chunk) > 0 {
			if !open {
				out.total++
				open = true
				if out.total%4096 == 0 && ctx.Err() != nil {
					return streamed{}, ctx.Err()
				}
			}
			switch {
			case w.tail > 0:
				cur = append(cur, chunk...)
			case out.total >= w.from && (w.to == 0 || out.total <= w.to):
				if out.first == 0 {
					out.first = out.total
				}
				out.last = out.total
				kept.Write(chunk)
			}
			if int64(kept.Len()+len(cur)) > limit {
				return streamed{}, errWindowTooLarge
			}
			if chunk[len(chunk)-1] == '\n' {
				open = false
				if cur != nil && !ring.push(cur, limit) {
					return streamed{}, errWindowTooLarge
				}
				cur = nil
			}
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			if open && cur != nil && !ring.push(cur, limit) {
				return streamed{}, errWindowTooLarge
			}
			return finishTail(out, kept.Bytes(), ring.lines, w.tail), nil
		case err != nil:
			return streamed{}, err
		}
	}
}

var errWindowTooLarge = errors.New("the requested lines are above the read limit; ask for fewer")

// tailRing keeps the last max lines.
type tailRing struct {
	lines [][]byte
	bytes int64
	max   int
}

// push adds a finished line, dropping the oldest; false when the lines kept
// pass limit bytes.
func (r *tailRing) push(line []byte, limit int64) bool {
	r.lines = append(r.lines, line)
	r.bytes += int64(len(line))
	if len(r.lines) > r.max {
		r.bytes -= int64(len(r.lines[0]))
		r.lines[0] = nil
		r.lines = r.lines[1:]
	}
	return r.bytes <= limit
}

func finishTail(out streamed, kept []byte, ring [][]byte, tail int) streamed {
	if tail == 0 {
		out.content = kept
		return out
	}
	out.content = bytes.Join(ring, nil)
	if len(ring) > 0 {
		out.first, out.last = out.total-len(ring)+1, out.total
	}
	return out
}

// readLargeText serves read_file for a file above MaxReadBytes, which only
// works with a line window.
func (f *Files) readLargeText(ctx context.Context, r io.Reader, in ReadFileArgs, out FileText) (FileText, error) {
	w := lineWindow{from: max(in.StartLine, 1), to: in.EndLine, tail: in.Tail}
	if in.Head > 0 {
		w.to = in.Head
	}
	if in.Tail > 0 {
		w.from = 0
	}
	s, err := streamLines(ctx, r, w, f.opts.MaxReadBytes)
	if err != nil {
		return FileText{}, fmt.Errorf("%s: %w", in.Path, err)
	}
	if !isText(s.content) {
		return FileText{}, fmt.Errorf("%s: the requested lines are not UTF-8 text", in.Path)
	}
	if s.first == 0 && s.total > 0 {
		return FileText{}, fmt.Errorf("%s: start_line %d is past the end (the file has %s)", in.Path, w.from, words.Count(s.total, "line", "lines"))
	}
	out.Content, out.TotalLines, out.StartLine, out.EndLine = string(s.content), s.total, s.first, s.last
	out.Cut = s.first != 1 || s.last != s.total
	return out, nil
}
