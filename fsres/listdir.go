package fsres

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"

	"github.com/grove-mcp/grove/roots"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ListDirArgs are the arguments of list_directory.
type ListDirArgs struct {
	Path string `json:"path" jsonschema:"directory: absolute path, file:// URI, or path relative to the first root"`
}

// Entry is one directory entry.
type Entry struct {
	Name string `json:"name"`
	Type string `json:"type" jsonschema:"file, dir, symlink or other"`
	Size int64  `json:"size,omitempty" jsonschema:"bytes, for files"`
}

// DirListing is the result of list_directory.
type DirListing struct {
	Path      string  `json:"path"`
	Entries   []Entry `json:"entries"`
	Ignored   int     `json:"ignored,omitempty" jsonschema:"entries left out because .gitignore ignores them (and .git)"`
	Truncated int     `json:"truncated,omitempty" jsonschema:"entries cut from the end of this answer"`
}

const (
	typeFile    = "file"
	typeDir     = "dir"
	typeSymlink = "symlink"
	typeOther   = "other"

	maxListEntries = 2000
)

var errNotDir = errors.New("not a directory")

func (f *Files) listDirectory(ctx context.Context, _ *mcp.CallToolRequest, sc *roots.Scope, in ListDirArgs) (*mcp.CallToolResult, DirListing, error) {
	loc, err := resolve(sc, in.Path)
	if err != nil {
		return nil, DirListing{}, err
	}
	out, err := f.listDir(ctx, loc)
	if err != nil {
		return nil, DirListing{}, roots.PublicError(in.Path, err)
	}
	out.Path = loc.Abs()
	if n := len(out.Entries); n > maxListEntries {
		out.Truncated = n - maxListEntries
		out.Entries = out.Entries[:maxListEntries]
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d entries\n", out.Path, len(out.Entries))
	for _, e := range out.Entries {
		switch e.Type {
		case typeDir:
			fmt.Fprintf(&b, "%s/\n", e.Name)
		case typeFile:
			fmt.Fprintf(&b, "%s  %s\n", e.Name, byteSize(e.Size))
		default:
			fmt.Fprintf(&b, "%s  (%s)\n", e.Name, e.Type)
		}
	}
	if out.Ignored > 0 {
		fmt.Fprintf(&b, "(%d ignored entries not shown)\n", out.Ignored)
	}
	if out.Truncated > 0 {
		fmt.Fprintf(&b, "(%d more entries cut; use search_files with a pattern to narrow)\n", out.Truncated)
	}
	return textResult(b.String()), out, nil
}

// listDir reads the directory loc: non-ignored entries, directories first,
// then by name.
func (f *Files) listDir(ctx context.Context, loc roots.Loc) (DirListing, error) {
	if info, err := loc.Stat(); err != nil {
		return DirListing{}, err
	} else if !info.IsDir() {
		return DirListing{}, errNotDir
	}
	// O_DIRECTORY|O_NONBLOCK: a FIFO swapped in after the Stat fails instead of blocking.
	dir, err := loc.FS().OpenFile(loc.Name(), os.O_RDONLY|openDirFlags, 0)
	if err != nil {
		return DirListing{}, err
	}
	defer dir.Close()
	des, err := dir.ReadDir(-1)
	if err != nil {
		return DirListing{}, err
	}
	m, _ := f.matcher(loc.Root) // nil for a single-file root, which has no directories
	out := DirListing{Entries: make([]Entry, 0, len(des))}
	for _, d := range des {
		if ctx.Err() != nil {
			return DirListing{}, ctx.Err()
		}
		rel := path.Join(loc.Rel, d.Name())
		if d.Name() == ".git" || (m != nil && m.Ignored(rel, d.IsDir())) {
			out.Ignored++
			continue
		}
		out.Entries = append(out.Entries, entryOf(d))
	}
	slices.SortFunc(out.Entries, func(a, b Entry) int {
		if (a.Type == typeDir) != (b.Type == typeDir) {
			if a.Type == typeDir {
				return -1
			}
			return 1
		}
		return cmp.Compare(a.Name, b.Name)
	})
	return out, nil
}

func entryOf(d fs.DirEntry) Entry {
	e := Entry{Name: d.Name(), Type: typeName(d.Type())}
	if e.Type == typeFile {
		if info, err := d.Info(); err == nil {
			e.Size = info.Size()
		}
	}
	return e
}

func typeName(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return typeFile
	case m.IsDir():
		return typeDir
	case m&fs.ModeSymlink != 0:
		return typeSymlink
	}
	return typeOther
}
