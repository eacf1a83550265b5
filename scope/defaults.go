package scope

import (
	"fmt"
	"path/filepath"

	"github.com/grove-mcp/grove/internal/words"
	"github.com/grove-mcp/grove/roots"
)

// Every path argument that can be left out (list_directory's path, grep's,
// repo_path of the Git tools, …) defaults the same way, through DefaultRoot.

// DefaultRoot returns the root that an omitted path argument named arg
// stands for: the only root; with several, the root holding the first of
// implied that is an absolute path or file:// URI inside one (a Git tool's
// path or files). Otherwise the error names the roots by URI and name, which
// list_roots shows anyway, so the model can pick one.
func DefaultRoot(sc *roots.Scope, arg string, implied ...string) (roots.Root, error) {
	rs := sc.Roots()
	switch len(rs) {
	case 0:
		return roots.Root{}, ErrNoRoots
	case 1:
		return rs[0], nil
	}
	for _, p := range implied {
		if !filepath.IsAbs(p) && !roots.IsURI(p) {
			continue
		}
		if loc, err := sc.Resolve(p); err == nil {
			return loc.Root, nil
		}
	}
	names := make([]string, len(rs))
	for i, r := range rs {
		names[i] = fmt.Sprintf("%s (%q)", r.URI, r.Name)
	}
	return roots.Root{}, fmt.Errorf("%s is needed: grove has %s, %s; give one of them, or a directory inside one",
		arg, words.Count(len(rs), "root", "roots"), words.List(names))
}
