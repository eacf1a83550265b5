package fsres

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
	"strings"

	"github.com/grove-mcp/grove/internal/words"
	"github.com/grove-mcp/grove/roots"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxDirLines caps the listing a directory resource reads as.
const maxDirLines = 5000

// read serves resources/read for file:///{+path}.
func (f *Files) read(ctx context.Context, req *mcp.ReadResourceRequest, sc *roots.Scope) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	loc, exists, err := ResolveResource(sc, uri)
	if err != nil {
		return nil, err
	}
	if !exists {
		return nil, ResourceNotFound(uri)
	}
	c, err := f.contents(ctx, loc)
	switch {
	case errors.Is(err, fs.ErrNotExist) || errors.Is(err, roots.ErrNotFound) || isEscapeErr(err):
		return nil, ResourceNotFound(uri)
	case errors.Is(err, roots.ErrNotRegular):
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "not a regular file or directory: " + uri}
	case errors.Is(err, errTooLarge):
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("%s: %v", uri, err)}
	case err != nil:
		return nil, roots.PublicError(uri, err)
	}
	c.URI = uri
	return &mcp.ReadResourceResult{
		Contents:  []*mcp.ResourceContents{c},
		Cacheable: mcp.Cacheable{TTLMs: 0, CacheScope: "private"},
	}, nil
}

// isEscapeErr reports os.Root refusing to leave its directory; it reads like
// a missing file. roots.PublicError knows the texts.
func isEscapeErr(err error) bool {
	return err != nil && errors.Is(roots.PublicError("", err), roots.ErrNotFound)
}

// contents reads loc as a resource: text, blob, or a directory listing.
func (f *Files) contents(ctx context.Context, loc roots.Loc) (*mcp.ResourceContents, error) {
	data, info, err := f.readAll(loc)
	if errors.Is(err, roots.ErrIsDir) {
		text, err := f.dirListing(ctx, loc)
		if err != nil {
			return nil, err
		}
		return &mcp.ResourceContents{MIMEType: "inode/directory", Text: text}, nil
	}
	if err != nil {
		return nil, err
	}
	name := info.Name()
	if isText(data) {
		// An empty file gives Text "", which the SDK leaves out of the JSON.
		return &mcp.ResourceContents{MIMEType: detectMIME(name, data, true), Text: string(data)}, nil
	}
	return &mcp.ResourceContents{MIMEType: detectMIME(name, data, false), Blob: data}, nil
}

// errTooLarge is wrapped by readAll when a file passes MaxReadBytes.
var errTooLarge = errors.New("file too large")

// readAll reads the regular file loc, refusing FIFOs and devices without
// blocking and files above MaxReadBytes.
func (f *Files) readAll(loc roots.Loc) ([]byte, fs.FileInfo, error) {
	file, info, err := loc.OpenFile()
	if err != nil {
		return nil, nil, err
	}
	defer file.Close()
	return f.readOpen(file, info)
}

func (f *Files) readOpen(file *os.File, info fs.FileInfo) ([]byte, fs.FileInfo, error) {
	limit := f.opts.MaxReadBytes
	if info.Size() > limit {
		return nil, nil, f.tooLarge(info.Size())
	}
	// Sized from fstat, one allocation; +1 notices a file that grew.
	data := make([]byte, 0, info.Size()+1)
	for int64(len(data)) <= limit {
		n, err := file.Read(data[len(data):min(cap(data), int(limit+1))])
		data = data[:len(data)+n]
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, nil, err
		}
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)] // grew while we read: make room
		}
	}
	if int64(len(data)) > limit { // grew while we read
		return nil, nil, f.tooLarge(int64(len(data)))
	}
	return data, info, nil
}

func (f *Files) tooLarge(size int64) error {
	return fmt.Errorf("%w: %s is above the read limit of %s", errTooLarge, byteSize(size), byteSize(f.opts.MaxReadBytes))
}

// dirListing is the text a directory resource reads as.
func (f *Files) dirListing(ctx context.Context, loc roots.Loc) (string, error) {
	entries, err := f.listDir(ctx, loc)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for i, e := range entries.Entries {
		if i == maxDirLines {
			n := len(entries.Entries) - i
			fmt.Fprintf(&b, "… %d more %s (use list_directory or resources/list)\n", n, words.Plural(n, "entry", "entries"))
			break
		}
		b.WriteString(e.Name)
		if e.Type == typeDir {
			b.WriteByte('/')
		}
		b.WriteByte('\n')
	}
	return b.String(), nil
}

// byteSize formats n bytes for people: 512 B, 1.5 KiB, 10 MiB.
func byteSize(n int64) string {
	return string(appendByteSize(nil, n))
}

// appendByteSize appends byteSize(n) to b.
func appendByteSize(b []byte, n int64) []byte {
	const unit = 1024
	if n < unit {
		b = strconv.AppendInt(b, n, 10)
		return append(b, " B"...) // a unit, like KiB: no plural
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	start := len(b)
	b = strconv.AppendFloat(b, float64(n)/float64(div), 'f', 1, 64)
	if bytes.HasSuffix(b[start:], []byte(".0")) {
		b = b[:len(b)-2]
	}
	return append(b, ' ', "KMGTPE"[exp], 'i', 'B')
}
