package fsres

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/grove-mcp/grove/fsres/internal/media"
	"github.com/grove-mcp/grove/roots"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ReadFilesArgs are the arguments of read_files.
type ReadFilesArgs struct {
	Paths []string `json:"paths" jsonschema:"files to read: absolute paths, file:// URIs, or paths relative to the first root"`
}

// FileResult is one file of read_files: its text, or why it could not be read.
type FileResult struct {
	FileText
	Input string `json:"input"`
	Error string `json:"error,omitempty"`
}

// FilesText is what read_files answers.
type FilesText struct {
	Files []FileResult `json:"files"`
}

// maxReadFiles bounds one read_files call.
const maxReadFiles = 100

func (f *Files) readFiles(ctx context.Context, _ *mcp.CallToolRequest, sc *roots.Scope, in ReadFilesArgs) (*mcp.CallToolResult, FilesText, error) {
	if len(in.Paths) == 0 {
		return nil, FilesText{}, errors.New("paths is empty")
	}
	if len(in.Paths) > maxReadFiles {
		return nil, FilesText{}, fmt.Errorf("%d paths asked, at most %d per call", len(in.Paths), maxReadFiles)
	}
	out := FilesText{Files: make([]FileResult, 0, len(in.Paths))}
	var res mcp.CallToolResult
	var b strings.Builder
	budget := f.opts.MaxReadBytes // all files together stay within one file's limit
	for _, p := range in.Paths {
		if err := ctx.Err(); err != nil {
			return nil, FilesText{}, err
		}
		r := FileResult{Input: p}
		t, err := f.readText(ctx, sc, ReadFileArgs{Path: p})
		switch {
		case err != nil:
			r.Error = err.Error()
		case t.weight() > budget:
			r.Error = fmt.Sprintf("%s: skipped, the answer already holds the read limit of %s; read it alone", p, byteSize(f.opts.MaxReadBytes))
		default:
			budget -= t.weight()
			r.FileText = t
		}
		out.Files = append(out.Files, r)
		if r.Error != "" {
			fmt.Fprintf(&b, "--- %s\nerror: %s\n", p, r.Error)
			continue
		}
		fmt.Fprintf(&b, "--- %s\n", r.summary())
		if t.data != nil { // the image or audio block follows the text that names it
			res.Content = append(res.Content, &mcp.TextContent{Text: b.String()}, media.Kind(t.Media).Block(t.data, t.MIMEType))
			b.Reset()
		}
	}
	if b.Len() > 0 || len(res.Content) == 0 {
		res.Content = append(res.Content, &mcp.TextContent{Text: b.String()})
	}
	return &res, out, nil
}

// weight is what a file adds to an answer.
func (t FileText) weight() int64 { return int64(len(t.Content) + len(t.data)) }
