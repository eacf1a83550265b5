package fsres

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/grove-mcp/grove/internal/words"
	"github.com/grove-mcp/grove/roots"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// InfoArgs are the arguments of file_info.
type InfoArgs struct {
	Path string `json:"path" jsonschema:"absolute path, file:// URI, or path relative to the first root"`
}

// Info is what file_info answers.
type Info struct {
	Path     string `json:"path"`
	Type     string `json:"type" jsonschema:"file, dir, symlink or other"`
	Size     int64  `json:"size"`
	Mode     string `json:"mode"`
	Modified string `json:"modified" jsonschema:"RFC 3339"`
	MIMEType string `json:"mime_type,omitempty"`
	IsText   bool   `json:"is_text,omitempty"`
	Lines    int    `json:"lines,omitempty" jsonschema:"line count, for text files"`
	Target   string `json:"target,omitempty" jsonschema:"where a symlink points, when that stays inside the roots"`
	Note     string `json:"note,omitempty"`
}

func (f *Files) fileInfo(ctx context.Context, _ *mcp.CallToolRequest, sc *roots.Scope, in InfoArgs) (*mcp.CallToolResult, Info, error) {
	loc, err := resolve(sc, in.Path)
	if err != nil {
		return nil, Info{}, err
	}
	li, err := loc.Lstat()
	if err != nil {
		return nil, Info{}, roots.PublicError(in.Path, err)
	}
	out := Info{Path: loc.Abs(), Type: typeName(li.Mode().Type()), Size: li.Size(), Mode: li.Mode().String(),
		Modified: li.ModTime().UTC().Format(time.RFC3339)}
	if out.Type == typeSymlink {
		out.Target = f.linkTarget(sc, loc)
	}
	if out.Type == typeFile {
		f.describeContent(ctx, loc, &out)
	}
	return textResult(out.text()), out, nil
}

// linkTarget returns the symlink's target as written, or "" when the link
// leads out of the roots (or nowhere), so nothing outside is revealed.
func (f *Files) linkTarget(sc *roots.Scope, loc roots.Loc) string {
	target, err := loc.FS().Readlink(loc.Name())
	if err != nil {
		return ""
	}
	abs := target
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(filepath.Dir(loc.Abs()), target)
	}
	if _, ok := sc.Locate(abs); !ok || !sc.ContainsReal(abs) {
		return ""
	}
	return target
}

// describeContent adds MIME type, text-ness and line count of a regular
// file. A file above MaxReadBytes is judged by its first 8000 bytes and its
// lines are counted by streaming it.
func (f *Files) describeContent(ctx context.Context, loc roots.Loc, out *Info) {
	file, info, err := loc.OpenFile()
	if err != nil {
		out.Note = strings.TrimPrefix(toolError(loc.Rel, err).Error(), loc.Rel+": ")
		return
	}
	defer file.Close()
	if info.Size() <= f.opts.MaxReadBytes {
		data, _, err := f.readOpen(file, info)
		if err != nil {
			out.Note = "unreadable"
			return
		}
		out.IsText = isText(data)
		out.MIMEType = detectMIME(loc.Rel, data, out.IsText)
		if out.IsText {
			out.Lines = len(lineStarts(data))
		}
		return
	}
	head := make([]byte, 8000)
	n, _ := io.ReadFull(file, head)
	head = head[:n]
	out.IsText = !looksBinary(head) && utf8.Valid(head[:validPrefix(head)])
	out.MIMEType = detectMIME(loc.Rel, head, out.IsText)
	if !out.IsText {
		return
	}
	s, err := streamLines(ctx, io.MultiReader(bytes.NewReader(head), file), lineWindow{from: math.MaxInt}, f.opts.MaxReadBytes)
	if err == nil {
		out.Lines = s.total
	}
	out.Note = "large file: judged text by its first 8000 bytes"
}

// validPrefix cuts a trailing partial UTF-8 sequence off a prefix of a file.
func validPrefix(b []byte) int {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if utf8.FullRune(b[i:]) {
				return len(b)
			}
			return i
		}
	}
	return len(b)
}

func (i Info) text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s, %s, mode %s, modified %s", i.Path, i.Type, byteSize(i.Size), i.Mode, i.Modified)
	if i.MIMEType != "" {
		fmt.Fprintf(&b, ", %s", i.MIMEType)
	}
	if i.IsText {
		fmt.Fprintf(&b, ", text, %s", words.Count(i.Lines, "line", "lines"))
	} else if i.Type == typeFile && i.Note == "" {
		b.WriteString(", binary")
	}
	if i.Target != "" {
		fmt.Fprintf(&b, ", -> %s", i.Target)
	}
	if i.Note != "" {
		fmt.Fprintf(&b, " (%s)", i.Note)
	}
	return b.String()
}
