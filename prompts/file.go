package prompts

import (
	"bytes"
	"context"
	"errors"
	"io"
	"path/filepath"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/grove-mcp/grove/roots"
)

type fileData struct {
	Path, Focus, MIMEType string
	Size                  int64
	Cut                   bool
}

func (p *Prompts) reviewFile(ctx context.Context, req *mcp.GetPromptRequest, sc *roots.Scope) (*mcp.GetPromptResult, error) {
	args := req.Params.Arguments
	name := args["path"]
	loc, err := sc.Resolve(name)
	if err != nil {
		return nil, invalidParams("prompt review_file: file %q not found", name)
	}
	head, size, err := readHead(loc, p.opts.MaxEmbedBytes)
	if err != nil {
		p.opts.Logger.Debug("review_file refused", "path", name, "err", err)
		return nil, fileError(name, err)
	}
	isBinary := binary(head, size > int64(len(head)))
	mimeType := p.opts.Files.MIMEType(filepath.Base(loc.Abs()), head, !isBinary)
	data := fileData{Path: loc.Abs(), Focus: args["focus"], Size: size, MIMEType: mimeType}
	link := &mcp.ResourceLink{URI: loc.URI(), Name: filepath.Base(loc.Abs()), MIMEType: data.MIMEType, Size: &size}
	description := "Review of " + data.Path
	if isBinary {
		instructions, err := render("review_file_binary", data)
		if err != nil {
			return nil, err
		}
		msgs := []*mcp.PromptMessage{text(instructions), {Role: "user", Content: link}}
		return &mcp.GetPromptResult{Description: description, Messages: msgs}, nil
	}
	m := p.material(string(head))
	m.total = int(size)
	m.cut = m.cut || size > int64(len(head))
	m.uri, m.mimeType, m.what, m.link = loc.URI(), data.MIMEType, "file", link
	m.hint = "hint_file"
	data.Cut = m.cut
	return result(description, "review_file", data, m)
}

// readHead reads at most limit+1 bytes of the regular file at loc (one more than fits, so that material sees it is
// too long), through the root, and returns them with the file's size.
func readHead(loc roots.Loc, limit int) ([]byte, int64, error) {
	f, info, err := loc.OpenFile()
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, int64(limit)+1))
	if err != nil {
		return nil, 0, err
	}
	return data, max(info.Size(), int64(len(data))), nil
}

// binary reports whether data (the start of a file, truncated if partial) is not text: it holds a NUL byte or is
// not UTF-8. A rune cut by the truncation does not count.
func binary(data []byte, partial bool) bool {
	if bytes.IndexByte(data, 0) >= 0 {
		return true
	}
	if partial {
		for i := 0; i < utf8.UTFMax && len(data) > 0 && !utf8.Valid(data); i++ {
			data = data[:len(data)-1]
		}
	}
	return !utf8.Valid(data)
}

// fileError maps a failure to open or read a file to the refusal the client sees, naming only what it sent.
func fileError(name string, err error) error {
	switch err = roots.PublicError(name, err); {
	case errors.Is(err, roots.ErrIsDir):
		return invalidParams("prompt review_file: %q is a directory, not a file", name)
	case errors.Is(err, roots.ErrNotRegular):
		return invalidParams("prompt review_file: %q is not a regular file", name)
	case errors.Is(err, roots.ErrNotFound):
		return invalidParams("prompt review_file: file %q not found", name)
	default:
		return invalidParams("prompt review_file: cannot read file: %v", err)
	}
}
