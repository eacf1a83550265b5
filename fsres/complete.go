package fsres

import (
	"context"
	"net/url"
	"path/filepath"
	"slices"
	"strings"

	"github.com/grove-mcp/grove/roots"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// fileTemplate is the URI template whose path argument Complete completes.
const fileTemplate = "file:///{+path}"

// maxCompletions is the spec's limit on values per answer.
const maxCompletions = 100

// Complete serves completion/complete for the path argument of
// file:///{+path}: root paths that extend the value, or, inside a root, the
// non-ignored children of the deepest directory the value names whose names
// extend its last segment. Directories end in "/". Values are percent-encoded
// like the URIs of resources/list. Other references get no values.
func (f *Files) Complete(ctx context.Context, req *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
	res := &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{Values: []string{}}}
	p := req.Params
	if p == nil || p.Ref == nil || p.Ref.Type != "ref/resource" || p.Ref.URI != fileTemplate || p.Argument.Name != "path" {
		return res, nil
	}
	sc, _ := f.opts.Scope.Scope(req)
	if sc.Empty() {
		return res, nil
	}
	value, err := url.PathUnescape(p.Argument.Value)
	if err != nil {
		value = p.Argument.Value
	}
	abs := "/" + strings.TrimPrefix(filepath.ToSlash(value), "/")
	found := []string{} // never null on the wire
	for _, r := range sc.Roots() {
		found = append(found, f.completeIn(ctx, sc, r, abs)...)
	}
	slices.Sort(found)
	found = slices.Compact(found)
	if len(found) > maxCompletions {
		res.Completion.Total, res.Completion.HasMore = len(found), true
		found = found[:maxCompletions]
	}
	res.Completion.Values = found
	return res, nil
}

// completeIn returns the completions of abs (slash-separated, absolute)
// within root r.
func (f *Files) completeIn(ctx context.Context, sc *roots.Scope, r roots.Root, abs string) []string {
	rootPath := filepath.ToSlash(r.Path)
	if r.File || strings.HasPrefix(rootPath+"/", abs) && len(abs) <= len(rootPath) {
		if strings.HasPrefix(rootPath, abs) {
			return []string{templateValue(rootPath, !r.File)}
		}
		return nil
	}
	if !strings.HasPrefix(abs, rootPath+"/") {
		return nil
	}
	dir, prefix := abs[:strings.LastIndexByte(abs, '/')], abs[strings.LastIndexByte(abs, '/')+1:]
	loc, err := sc.Resolve(filepath.FromSlash(dir))
	if err != nil || loc.Root.Path != r.Path {
		return nil
	}
	listing, err := f.listDir(ctx, loc)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range listing.Entries {
		if strings.HasPrefix(e.Name, prefix) {
			out = append(out, templateValue(dir+"/"+e.Name, e.Type == typeDir))
		}
	}
	return out
}

// templateValue turns an absolute slash path into the value of {+path}.
func templateValue(abs string, dir bool) string {
	v := strings.TrimPrefix(roots.URI(filepath.FromSlash(abs)), "file:///")
	if dir {
		v += "/"
	}
	return v
}
