package fsres

import (
	"context"
	"errors"
	"fmt"
	"io/fs"

	"github.com/grove-mcp/grove/roots"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// WriteArgs are the arguments of write_file.
type WriteArgs struct {
	Path    string `json:"path" jsonschema:"file to write: absolute path, file:// URI, or relative to the first root"`
	Content string `json:"content" jsonschema:"the complete new content"`
}

// Written is what write_file answers.
type Written struct {
	Path    string `json:"path"`
	Bytes   int    `json:"bytes"`
	Created bool   `json:"created" jsonschema:"the file did not exist before"`
}

func (f *Files) writeFile(ctx context.Context, _ *mcp.CallToolRequest, sc *roots.Scope, in WriteArgs) (*mcp.CallToolResult, Written, error) {
	loc, err := resolve(sc, in.Path)
	if err != nil {
		return nil, Written{}, err
	}
	if int64(len(in.Content)) > f.opts.MaxReadBytes {
		return nil, Written{}, fmt.Errorf("%s: content is %s, above the limit of %s", in.Path, byteSize(int64(len(in.Content))), byteSize(f.opts.MaxReadBytes))
	}
	created, err := writeAtomic(loc, []byte(in.Content))
	if err != nil {
		return nil, Written{}, writeError(in.Path, err)
	}
	out := Written{Path: loc.Abs(), Bytes: len(in.Content), Created: created}
	verb := "replaced"
	if created {
		verb = "created"
	}
	return textResult(fmt.Sprintf("%s %s (%s)", verb, out.Path, byteSize(int64(out.Bytes)))), out, nil
}

// writeError names only what the client sent.
func writeError(input string, err error) error {
	for _, known := range []error{errWriteDir, errWriteSymlink, errNoParent, roots.ErrNotRegular} {
		if errors.Is(err, known) {
			return fmt.Errorf("%s: %w", input, known)
		}
	}
	return roots.PublicError(input, err)
}

// DirArgs are the arguments of create_directory.
type DirArgs struct {
	Path string `json:"path" jsonschema:"directory to create, with missing parents"`
}

// DirCreated is what create_directory answers.
type DirCreated struct {
	Path    string `json:"path"`
	Created bool   `json:"created" jsonschema:"false when it already existed"`
}

func (f *Files) createDirectory(ctx context.Context, _ *mcp.CallToolRequest, sc *roots.Scope, in DirArgs) (*mcp.CallToolResult, DirCreated, error) {
	loc, err := resolve(sc, in.Path)
	if err != nil {
		return nil, DirCreated{}, err
	}
	out := DirCreated{Path: loc.Abs()}
	info, err := loc.Lstat()
	switch {
	case err == nil && info.IsDir():
		return textResult(out.Path + " already exists"), out, nil
	case err == nil:
		return nil, DirCreated{}, fmt.Errorf("%s exists and is not a directory", in.Path)
	case !errors.Is(err, fs.ErrNotExist):
		return nil, DirCreated{}, roots.PublicError(in.Path, err)
	}
	if err := loc.FS().MkdirAll(loc.Name(), 0o755); err != nil {
		return nil, DirCreated{}, roots.PublicError(in.Path, err)
	}
	out.Created = true
	return textResult("created " + out.Path), out, nil
}
