package fsres

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"

	"github.com/grove-mcp/grove/fsres/internal/media"
	"github.com/grove-mcp/grove/internal/words"
	"github.com/grove-mcp/grove/roots"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ReadFileArgs are the arguments of read_file.
type ReadFileArgs struct {
	Path      string `json:"path" jsonschema:"absolute path, file:// URI, or path relative to the first root"`
	StartLine int    `json:"start_line,omitempty" jsonschema:"first line to return, 1-based"`
	EndLine   int    `json:"end_line,omitempty" jsonschema:"last line to return, inclusive"`
	Head      int    `json:"head,omitempty" jsonschema:"return only the first N lines"`
	Tail      int    `json:"tail,omitempty" jsonschema:"return only the last N lines"`
}

// FileText is what read_file answers.
type FileText struct {
	Path       string `json:"path"`
	Content    string `json:"-"` // sent once, in the content block: not twice in a model's context
	TotalLines int    `json:"total_lines"`
	StartLine  int    `json:"start_line,omitempty"`
	EndLine    int    `json:"end_line,omitempty"`
	Cut        bool   `json:"cut,omitempty" jsonschema:"only part of the file is in content"`
	Binary     bool   `json:"binary,omitempty" jsonschema:"the file is not UTF-8 text; its bytes are left out unless media says otherwise"`
	Size       int64  `json:"size"`
	MIMEType   string `json:"mime_type,omitempty"`
	Media      string `json:"media,omitempty" jsonschema:"image or audio: the file comes as an image or audio content block (base64, mime_type), unless media_limit is set"`
	MediaLimit int64  `json:"media_limit,omitempty" jsonschema:"set when the image or audio file is above this many bytes: it is described, not sent"`

	text string // the whole text block, when built with Content (see wholeFile)
	data []byte // the bytes of an image or audio file to send (see media)
}

func (f *Files) readFile(ctx context.Context, _ *mcp.CallToolRequest, sc *roots.Scope, in ReadFileArgs) (*mcp.CallToolResult, FileText, error) {
	if err := checkRange(in); err != nil {
		return nil, FileText{}, err
	}
	out, err := f.readText(ctx, sc, in)
	if err != nil {
		return nil, FileText{}, err
	}
	res := textResult(out.summary())
	if out.data != nil {
		res.Content = append(res.Content, media.Kind(out.Media).Block(out.data, out.MIMEType))
	}
	return res, out, nil
}

func checkRange(in ReadFileArgs) error {
	switch {
	case in.StartLine < 0 || in.EndLine < 0 || in.Head < 0 || in.Tail < 0:
		return errors.New("line numbers and counts must not be negative")
	case in.Head > 0 && in.Tail > 0:
		return errors.New("give head or tail, not both")
	case (in.Head > 0 || in.Tail > 0) && (in.StartLine > 0 || in.EndLine > 0):
		return errors.New("give head/tail or start_line/end_line, not both")
	case in.EndLine > 0 && in.StartLine > in.EndLine:
		return fmt.Errorf("start_line %d is after end_line %d", in.StartLine, in.EndLine)
	}
	return nil
}

// readText reads the file in.Path and cuts it to the requested lines.
func (f *Files) readText(ctx context.Context, sc *roots.Scope, in ReadFileArgs) (FileText, error) {
	loc, err := resolve(sc, in.Path)
	if err != nil {
		return FileText{}, err
	}
	file, info, err := loc.OpenFile()
	if err != nil {
		return FileText{}, toolError(in.Path, err)
	}
	defer file.Close()
	out := FileText{Path: loc.Abs(), Size: info.Size()}
	windowed := in.StartLine > 0 || in.EndLine > 0 || in.Head > 0 || in.Tail > 0
	if info.Size() > f.opts.MaxReadBytes && windowed {
		return f.readLarge(ctx, file, info, in, out)
	}
	if info.Size() > f.opts.MaxReadBytes {
		if m, ok := f.largeMedia(file, info, out); ok {
			return m, nil
		}
	}
	data, _, err := f.readOpen(file, info)
	if err != nil {
		return FileText{}, toolError(in.Path, err)
	}
	if !isText(data) {
		out.Binary, out.MIMEType = true, detectMIME(info.Name(), data, false)
		return f.media(out, data), nil
	}
	return cutLines(out, data, in)
}

// media marks out, a binary file, as an image or audio file when its type is
// one, and keeps data to send when it is within MaxMediaBytes.
func (f *Files) media(out FileText, data []byte) FileText {
	k := media.Of(out.MIMEType)
	if k == media.None || f.opts.MaxMediaBytes < 0 {
		return out
	}
	out.Media = string(k)
	if out.Size > f.opts.MaxMediaBytes || int64(len(data)) > f.opts.MaxMediaBytes {
		out.MediaLimit = f.opts.MaxMediaBytes
		return out
	}
	out.data = data
	return out
}

// largeMedia describes a file above MaxReadBytes that is an image or audio
// file by its first bytes; it reports false for any other file (whose head
// it has then consumed: the caller refuses files that large).
func (f *Files) largeMedia(file io.Reader, info fs.FileInfo, out FileText) (FileText, bool) {
	head := make([]byte, sniffLen)
	n, _ := io.ReadFull(file, head)
	mimeType := detectMIME(info.Name(), head[:n], false)
	if media.Of(mimeType) == media.None {
		return out, false
	}
	out.Binary, out.MIMEType = true, mimeType
	return f.media(out, nil), true
}

// sniffLen is how much of a file the MIME sniffer looks at
// (gabriel-vasile/mimetype reads 3 KiB by default).
const sniffLen = 3072

// readLarge serves a line window of a file above MaxReadBytes by streaming.
func (f *Files) readLarge(ctx context.Context, file io.Reader, info fs.FileInfo, in ReadFileArgs, out FileText) (FileText, error) {
	head := make([]byte, 8000)
	n, _ := io.ReadFull(file, head)
	if head = head[:n]; looksBinary(head) {
		out.Binary, out.MIMEType = true, detectMIME(info.Name(), head, false)
		return f.media(out, nil), nil
	}
	return f.readLargeText(ctx, io.MultiReader(bytes.NewReader(head), file), in, out)
}

// cutLines puts the lines of data that in asks for into out.
func cutLines(out FileText, data []byte, in ReadFileArgs) (FileText, error) {
	if in.Head == 0 && in.Tail == 0 && in.StartLine == 0 && in.EndLine == 0 {
		return wholeFile(out, data), nil
	}
	lines := lineStarts(data)
	out.TotalLines = len(lines)
	from, to := 1, len(lines)
	switch {
	case in.Head > 0:
		to = min(in.Head, to)
	case in.Tail > 0:
		from = max(1, to-in.Tail+1)
	case in.StartLine > 0 || in.EndLine > 0:
		from = max(in.StartLine, 1)
		if in.EndLine > 0 {
			to = min(in.EndLine, to)
		}
	}
	if len(lines) == 0 {
		return out, nil
	}
	if from > len(lines) {
		return FileText{}, fmt.Errorf("%s: start_line %d is past the end (the file has %s)", in.Path, from, words.Count(len(lines), "line", "lines"))
	}
	end := len(data)
	if to < len(lines) {
		end = lines[to]
	}
	out.Content = string(data[lines[from-1]:end])
	out.StartLine, out.EndLine = from, to
	out.Cut = from != 1 || to != len(lines)
	return out, nil
}

// wholeFile puts all of data into out, counting its lines without indexing
// them.
func wholeFile(out FileText, data []byte) FileText {
	if len(data) == 0 {
		return out
	}
	out.TotalLines = bytes.Count(data, []byte{'\n'})
	if data[len(data)-1] != '\n' {
		out.TotalLines++
	}
	// One copy of the file: the text block is the header and then the
	// content, and Content is the tail of that same string.
	head := wholeHead(out.Path, out.TotalLines)
	var b strings.Builder
	b.Grow(len(head) + len(data))
	b.WriteString(head)
	b.Write(data)
	out.text = b.String()
	out.Content = out.text[len(head):]
	out.StartLine, out.EndLine = 1, out.TotalLines
	return out
}

// wholeHead is the first line of a whole file's text block.
func wholeHead(path string, lines int) string {
	return path + ": " + words.Count(lines, "line", "lines") + "\n"
}

// summary is the text a model sees for one file.
func (t FileText) summary() string {
	switch {
	case t.Media != "" && t.MediaLimit > 0:
		return fmt.Sprintf("%s: %s file, %s, %s; not shown: above the limit of %s for images and audio", t.Path, t.Media, byteSize(t.Size), t.MIMEType, byteSize(t.MediaLimit))
	case t.Media != "" && t.data != nil:
		return fmt.Sprintf("%s: %s file, %s, %s; in the next content block", t.Path, t.Media, byteSize(t.Size), t.MIMEType)
	case t.Binary:
		return fmt.Sprintf("%s: binary file, %s, %s; not shown", t.Path, byteSize(t.Size), t.MIMEType)
	case t.TotalLines == 0:
		return fmt.Sprintf("%s: empty file", t.Path)
	case t.Cut:
		return fmt.Sprintf("%s: lines %d-%d of %d (ask with start_line/end_line for others)\n%s",
			t.Path, t.StartLine, t.EndLine, t.TotalLines, t.Content)
	}
	if t.text != "" {
		return t.text
	}
	// Not Sprintf: the content can be megabytes, copied once here.
	head := wholeHead(t.Path, t.TotalLines)
	var b strings.Builder
	b.Grow(len(head) + len(t.Content))
	b.WriteString(head)
	b.WriteString(t.Content)
	return b.String()
}

// lineStarts returns the offset where each line begins; a final line without
// a newline counts, an empty file has none.
func lineStarts(data []byte) []int {
	if len(data) == 0 {
		return nil
	}
	starts := make([]int, 1, bytes.Count(data, []byte{'\n'})+1)
	for i := 0; ; {
		j := bytes.IndexByte(data[i:], '\n')
		if j < 0 || i+j+1 == len(data) {
			return starts
		}
		i += j + 1
		starts = append(starts, i)
	}
}

// toolError turns a read failure into what a model should see, naming only
// what it sent.
func toolError(input string, err error) error {
	switch {
	case errors.Is(err, roots.ErrIsDir):
		return fmt.Errorf("%s is a directory (use list_directory)", input)
	case errors.Is(err, roots.ErrNotRegular):
		return fmt.Errorf("%s is not a regular file (FIFO, socket or device); refused", input)
	case errors.Is(err, errTooLarge):
		return fmt.Errorf("%s: %v; read part of it with start_line/end_line, head or tail", input, err)
	}
	return roots.PublicError(input, err)
}
