package fsres

import (
	"context"
	"fmt"
	"github.com/grove-mcp/grove/fsres/internal/glob"
	"io/fs"
	"strings"

	"github.com/grove-mcp/grove/internal/words"
	"github.com/grove-mcp/grove/roots"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// SearchArgs are the arguments of search_files.
type SearchArgs struct {
	Path       string `json:"path,omitempty" jsonschema:"directory to search below: absolute path, file:// URI, or relative to the first root (default: the only root; required when there are several)"`
	Pattern    string `json:"pattern" jsonschema:"glob relative to path, e.g. **/*.go or cmd/*/main.go; without / it matches base names at any depth"`
	MaxResults int    `json:"max_results,omitempty" jsonschema:"most paths to return (default 200)"`
}

// SearchResult is what search_files answers. Paths are relative to Path;
// directories end in "/".
type SearchResult struct {
	Path    string   `json:"path"`
	Matches []string `json:"matches"`
	Cut     bool     `json:"cut,omitempty" jsonschema:"more paths matched than max_results"`
}

const defaultMaxResults = 200

func (f *Files) searchFiles(ctx context.Context, _ *mcp.CallToolRequest, sc *roots.Scope, in SearchArgs) (*mcp.CallToolResult, SearchResult, error) {
	g, err := glob.Compile(in.Pattern)
	if err != nil {
		return nil, SearchResult{}, err
	}
	loc, err := f.resolveDir(sc, in.Path)
	if err != nil {
		return nil, SearchResult{}, err
	}
	limit := in.MaxResults
	if limit <= 0 {
		limit = defaultMaxResults
	}
	out := SearchResult{Path: loc.Abs(), Matches: []string{}}
	err = f.walkUnder(ctx, loc, func(rel string, d fs.DirEntry) error {
		if g.Match(rel) {
			if len(out.Matches) == limit {
				out.Cut = true
				return errStop
			}
			shown := rel
			if d.IsDir() {
				shown += "/"
			}
			out.Matches = append(out.Matches, shown)
		}
		if d.IsDir() && !g.MayMatchBelow(rel) {
			return fs.SkipDir
		}
		return nil
	})
	if err != nil {
		return nil, SearchResult{}, roots.PublicError(shownArg(in.Path, loc), err)
	}
	var b strings.Builder
	n := len(out.Matches)
	fmt.Fprintf(&b, "%s under %s %s %s\n", words.Count(n, "path", "paths"), out.Path, words.Plural(n, "matches", "match"), in.Pattern)
	for _, m := range out.Matches {
		b.WriteString(m)
		b.WriteByte('\n')
	}
	if out.Cut {
		fmt.Fprintf(&b, "(cut at %d; raise max_results or narrow path/pattern)\n", limit)
	}
	return textResult(b.String()), out, nil
}

// resolveDir resolves a tool's directory argument ("" means the default
// root, see resolveOrRoot) and checks that it is a directory git does not
// ignore.
func (f *Files) resolveDir(sc *roots.Scope, p string) (roots.Loc, error) {
	loc, p, err := resolveOrRoot(sc, p)
	if err != nil {
		return roots.Loc{}, err
	}
	info, err := loc.Stat()
	if err != nil {
		return roots.Loc{}, roots.PublicError(p, err)
	}
	if !info.IsDir() || loc.Root.File {
		return roots.Loc{}, fmt.Errorf("%s is not a directory", p)
	}
	if li, err := loc.Lstat(); err == nil && li.Mode()&fs.ModeSymlink != 0 {
		// Walks never follow symlinks, so below it they would find nothing.
		return roots.Loc{}, fmt.Errorf("%s is a symlink; give the directory it points to", p)
	}
	if f.ignoredBase(loc) {
		return roots.Loc{}, fmt.Errorf("%s is ignored by .gitignore (or is .git); nothing is searched there", p)
	}
	return loc, nil
}
