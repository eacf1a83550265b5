package fsres

import (
	"context"
	"errors"
	"fmt"
	"io/fs"

	"github.com/grove-mcp/grove/roots"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MoveArgs are the arguments of move_file.
type MoveArgs struct {
	Source      string `json:"source" jsonschema:"file or directory to move"`
	Destination string `json:"destination" jsonschema:"new path, in the same root; must not exist"`
}

// Moved is what move_file answers.
type Moved struct {
	Source      string `json:"source"`
	Destination string `json:"destination"`
}

// moveFile never overwrites. Files and symlinks move by link(2) + unlink:
// link fails atomically when the destination exists, so there is no window
// in which a file created meanwhile is replaced. Directories cannot be
// hard-linked; they are checked, then renamed, and a directory created at
// the destination in between could be replaced if it is empty (rename(2)
// replaces only empty directories), a loss of nothing. os.Root offers no
// RENAME_NOREPLACE.
func (f *Files) moveFile(ctx context.Context, _ *mcp.CallToolRequest, sc *roots.Scope, in MoveArgs) (*mcp.CallToolResult, Moved, error) {
	src, err := resolve(sc, in.Source)
	if err != nil {
		return nil, Moved{}, err
	}
	dst, err := resolve(sc, in.Destination)
	if err != nil {
		return nil, Moved{}, err
	}
	if src.Rel == "." || src.Root.File {
		return nil, Moved{}, fmt.Errorf("%s is a root; it cannot be moved", in.Source)
	}
	if src.FS() != dst.FS() {
		return nil, Moved{}, errors.New("source and destination are in different roots; move within one root")
	}
	info, err := src.Lstat()
	if err != nil {
		return nil, Moved{}, roots.PublicError(in.Source, err)
	}
	if _, err := dst.Lstat(); err == nil || dst.Rel == "." {
		return nil, Moved{}, fmt.Errorf("%s already exists; move_file never overwrites", in.Destination)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, Moved{}, roots.PublicError(in.Destination, err)
	}
	if err := move(src, dst, info); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return nil, Moved{}, fmt.Errorf("%s already exists; move_file never overwrites", in.Destination)
		}
		return nil, Moved{}, roots.PublicError(in.Destination, err)
	}
	out := Moved{Source: src.Abs(), Destination: dst.Abs()}
	return textResult(fmt.Sprintf("moved %s to %s", out.Source, out.Destination)), out, nil
}

func move(src, dst roots.Loc, info fs.FileInfo) error {
	r := src.FS()
	if info.IsDir() {
		return r.Rename(src.Name(), dst.Name())
	}
	err := r.Link(src.Name(), dst.Name())
	switch {
	case err == nil:
		return r.Remove(src.Name())
	case errors.Is(err, fs.ErrExist) || errors.Is(err, fs.ErrNotExist):
		return err
	}
	// The file system has no hard links (FAT, some mounts): check, then rename.
	if _, err := dst.Lstat(); err == nil {
		return fs.ErrExist
	}
	return r.Rename(src.Name(), dst.Name())
}
