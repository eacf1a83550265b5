package fsres

import (
	"context"
	"fmt"
	"io/fs"
	"strings"

	"github.com/grove-mcp/grove/internal/words"
	"github.com/grove-mcp/grove/roots"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TreeArgs are the arguments of directory_tree.
type TreeArgs struct {
	Path       string `json:"path,omitempty" jsonschema:"directory: absolute path, file:// URI, or relative to the first root (default: the only root; required when there are several)"`
	MaxDepth   int    `json:"max_depth,omitempty" jsonschema:"levels below path to show (default 3)"`
	MaxEntries int    `json:"max_entries,omitempty" jsonschema:"most entries to show (default 500)"`
}

// TreeEntry is one path in a tree, relative to its Path.
type TreeEntry struct {
	Path string `json:"path"`
	Type string `json:"type" jsonschema:"file, dir, symlink or other"`
}

// Tree is what directory_tree answers.
type Tree struct {
	Path       string      `json:"path"`
	Entries    []TreeEntry `json:"entries"`
	Cut        bool        `json:"cut,omitempty" jsonschema:"max_entries was reached"`
	DepthLimit bool        `json:"depth_limit,omitempty" jsonschema:"some directories at max_depth were not expanded"`
}

const (
	defaultTreeDepth   = 3
	defaultTreeEntries = 500
)

func (f *Files) directoryTree(ctx context.Context, _ *mcp.CallToolRequest, sc *roots.Scope, in TreeArgs) (*mcp.CallToolResult, Tree, error) {
	depth, limit := in.MaxDepth, in.MaxEntries
	if depth <= 0 {
		depth = defaultTreeDepth
	}
	if limit <= 0 {
		limit = defaultTreeEntries
	}
	loc, err := f.resolveDir(sc, in.Path)
	if err != nil {
		return nil, Tree{}, err
	}
	out := Tree{Path: loc.Abs(), Entries: []TreeEntry{}}
	err = f.walkUnder(ctx, loc, func(rel string, d fs.DirEntry) error {
		if len(out.Entries) == limit {
			out.Cut = true
			return errStop
		}
		out.Entries = append(out.Entries, TreeEntry{Path: rel, Type: typeName(d.Type())})
		if d.IsDir() && strings.Count(rel, "/")+1 >= depth {
			out.DepthLimit = true
			return fs.SkipDir
		}
		return nil
	})
	if err != nil {
		return nil, Tree{}, roots.PublicError(shownArg(in.Path, loc), err)
	}
	return textResult(out.text(depth, limit)), out, nil
}

// text draws the tree with two spaces per level, directories ending in "/".
func (t Tree) text(depth, limit int) string {
	n := len(t.Path) + 2 + 200 // header and footers
	for _, e := range t.Entries {
		n += 2*strings.Count(e.Path, "/") + len(e.Path) + 12
	}
	var b strings.Builder // String does not copy what it built
	b.Grow(n)
	b.WriteString(t.Path)
	b.WriteString("/\n")
	for _, e := range t.Entries {
		writeIndent(&b, strings.Count(e.Path, "/")+1)
		b.WriteString(e.Path[strings.LastIndexByte(e.Path, '/')+1:])
		switch e.Type {
		case typeDir:
			b.WriteByte('/')
		case typeSymlink, typeOther:
			b.WriteString(" (")
			b.WriteString(e.Type)
			b.WriteByte(')')
		}
		b.WriteByte('\n')
	}
	if t.DepthLimit {
		fmt.Fprintf(&b, "(directories at depth %d not expanded; call again on one of them or raise max_depth)\n", depth)
	}
	if t.Cut {
		fmt.Fprintf(&b, "(cut at %s; raise max_entries or pick a subdirectory)\n", words.Count(limit, "entry", "entries"))
	}
	return b.String()
}

// indent is the indentation of the levels most trees reach.
const indent = "                                "

// writeIndent writes two spaces per level to b.
func writeIndent(b *strings.Builder, levels int) {
	for ; levels > len(indent)/2; levels -= len(indent) / 2 {
		b.WriteString(indent)
	}
	b.WriteString(indent[:2*levels])
}
