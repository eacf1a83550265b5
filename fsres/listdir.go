package fsres

import (
	"context"
	"errors"
	"fmt"
	"github.com/grove-mcp/grove/fsres/internal/dirent"
	"io/fs"
	"os"
	"path"
	"strings"

	"github.com/grove-mcp/grove/internal/words"
	"github.com/grove-mcp/grove/roots"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ListDirArgs are the arguments of list_directory.
type ListDirArgs struct {
	Path string `json:"path,omitempty" jsonschema:"directory: absolute path, file:// URI, or path relative to the first root (default: the only root; required when there are several)"`
}

// Entry is one directory entry.
type Entry = dirent.Entry

// DirListing is the result of list_directory.
type DirListing struct {
	Path      string  `json:"path"`
	Entries   []Entry `json:"entries"`
	Ignored   int     `json:"ignored,omitempty" jsonschema:"entries left out because .gitignore ignores them (and .git)"`
	Truncated int     `json:"truncated,omitempty" jsonschema:"entries cut from the end of this answer"`
}

const (
	typeFile    = dirent.TypeFile
	typeDir     = dirent.TypeDir
	typeSymlink = dirent.TypeSymlink
	typeOther   = dirent.TypeOther

	maxListEntries = 2000
)

var errNotDir = errors.New("not a directory")

func (f *Files) listDirectory(ctx context.Context, _ *mcp.CallToolRequest, sc *roots.Scope, in ListDirArgs) (*mcp.CallToolResult, DirListing, error) {
	loc, arg, err := resolveOrRoot(sc, in.Path)
	if err != nil {
		return nil, DirListing{}, err
	}
	out, err := f.listDir(ctx, loc)
	if err != nil {
		return nil, DirListing{}, roots.PublicError(arg, err)
	}
	out.Path = loc.Abs()
	if n := len(out.Entries); n > maxListEntries {
		out.Truncated = n - maxListEntries
		out.Entries = out.Entries[:maxListEntries]
	}
	return textResult(out.text()), out, nil
}

// text shows the listing one entry a line: directories end in "/", files
// carry their size, other types their type in parentheses.
func (l DirListing) text() string {
	n := len(l.Path) + 40 + 120 // header and footers
	for _, e := range l.Entries {
		n += len(e.Name) + 16
	}
	var b strings.Builder // String does not copy what it built
	b.Grow(n)
	var num [24]byte
	b.WriteString(l.Path)
	b.WriteString(": ")
	b.WriteString(words.Count(len(l.Entries), "entry", "entries"))
	b.WriteByte('\n')
	for _, e := range l.Entries {
		b.WriteString(e.Name)
		switch e.Type {
		case typeDir:
			b.WriteByte('/')
		case typeFile:
			b.WriteString("  ")
			b.Write(appendByteSize(num[:0], e.Size))
		default:
			b.WriteString("  (")
			b.WriteString(e.Type)
			b.WriteByte(')')
		}
		b.WriteByte('\n')
	}
	if l.Ignored > 0 {
		fmt.Fprintf(&b, "(%s not shown)\n", words.Count(l.Ignored, "ignored entry", "ignored entries"))
	}
	if l.Truncated > 0 {
		fmt.Fprintf(&b, "(%d more %s cut; use search_files with a pattern to narrow)\n", l.Truncated, words.Plural(l.Truncated, "entry", "entries"))
	}
	return b.String()
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
	dir, err := loc.FS().OpenFile(loc.Name(), os.O_RDONLY|dirent.OpenDirFlags, 0)
	if err != nil {
		return DirListing{}, err
	}
	defer dir.Close()
	m, _ := f.matcher(loc.Root) // nil for a single-file root, which has no directories
	prefix := path.Join(loc.Rel, "x")
	prefix = prefix[:len(prefix)-1] // what path.Join(loc.Rel, name) puts before name
	ignored := func(name string, isDir bool) bool {
		return name == ".git" || (m != nil && m.Ignored(prefix+name, isDir))
	}
	entries, nIgnored, err := dirent.Read(ctx, dir, ignored)
	if err != nil {
		return DirListing{}, err
	}
	return DirListing{Entries: entries, Ignored: nIgnored}, nil
}

func typeName(m fs.FileMode) string { return dirent.TypeName(m) }
