package fsres

import (
	"context"
	"errors"
	"io/fs"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/grove-mcp/grove/roots"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// listed is one resources/list entry and where it came from, for the cursor.
type listed struct {
	res  *mcp.Resource
	root int
	rel  string
}

// ListResources serves resources/list: every non-ignored regular file under
// the roots (symlinks count when they lead to a regular file inside the same
// root), in root order and then path order, one page at a time. The cursor
// is opaque and signed; a forged or stale one gets -32602 "invalid cursor".
// A page costs a walk that skips every subtree before the cursor, so memory
// stays at one page plus one directory listing per level.
func (f *Files) ListResources(ctx context.Context, req *mcp.ListResourcesRequest) (*mcp.ListResourcesResult, error) {
	res := &mcp.ListResourcesResult{
		Resources: []*mcp.Resource{},
		Cacheable: mcp.Cacheable{TTLMs: 0, CacheScope: "private"}, // file data: private, stale at once
	}
	sc, _ := f.opts.Scope.Scope(req)
	if sc == nil || sc.Empty() {
		return res, nil
	}
	rs := sc.Roots()
	uris := make([]string, len(rs))
	for i, r := range rs {
		uris[i] = r.URI
	}
	var start cursor
	if req.Params != nil && req.Params.Cursor != "" {
		c, err := f.decodeCursor(req.Params.Cursor, uris)
		if err != nil {
			return nil, err
		}
		start = c
	}
	want := f.opts.PageSize + 1 // one more tells whether there is a next page
	var found []listed
	for i := start.Root; i < len(rs) && len(found) < want; i++ {
		last := ""
		if i == start.Root {
			last = start.Last
		}
		err := f.listRoot(ctx, sc, i, len(rs) > 1, last, func(l listed) bool {
			found = append(found, l)
			return len(found) < want
		})
		if err != nil {
			return nil, err
		}
	}
	if len(found) == want {
		found = found[:want-1]
		end := found[len(found)-1]
		res.NextCursor = f.encodeCursor(cursor{Root: end.root, RootURI: uris[end.root], Last: end.rel})
	}
	for _, l := range found {
		res.Resources = append(res.Resources, l.res)
	}
	return res, nil
}

// listRoot emits the files of root i that sort after last, until emit
// returns false.
func (f *Files) listRoot(ctx context.Context, sc *roots.Scope, i int, multi bool, last string, emit func(listed) bool) error {
	r := sc.Roots()[i]
	base, err := sc.Resolve(r.URI)
	if err != nil {
		return nil // the root vanished: nothing to list
	}
	if r.File {
		info, err := base.Stat()
		if err != nil || !info.Mode().IsRegular() || (last != "" && comparePaths(base.Rel, last) <= 0) {
			return nil
		}
		emit(listed{res: resource(r, base.Rel, multi, info), root: i, rel: base.Rel})
		return nil
	}
	m, err := f.matcher(r)
	if err != nil {
		return err
	}
	inner := innerRoots(sc.Roots(), i)
	err = m.Walk(ctx, func(rel string, d fs.DirEntry) error {
		if inner[rel] {
			// Another root: its files are listed once, under it.
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if last != "" {
			if d.IsDir() {
				if isAncestor(rel, last) || comparePaths(rel, last) > 0 {
					return nil
				}
				return fs.SkipDir // everything below sorts before the cursor
			}
			if comparePaths(rel, last) <= 0 {
				return nil
			}
		}
		info := fileInfo(base, rel, d)
		if info == nil {
			return nil
		}
		if !emit(listed{res: resource(r, rel, multi, info), root: i, rel: rel}) {
			return errStop
		}
		return nil
	})
	if errors.Is(err, errStop) {
		return nil
	}
	return err
}

// innerRoots returns the other roots that lie inside root i, by path
// relative to it (slash-separated, as the walk names them).
func innerRoots(rs []roots.Root, i int) map[string]bool {
	var inner map[string]bool
	for j, o := range rs {
		rel, err := filepath.Rel(rs[i].Path, o.Path)
		if j == i || err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			continue
		}
		if inner == nil {
			inner = make(map[string]bool)
		}
		inner[filepath.ToSlash(rel)] = true
	}
	return inner
}

// fileInfo returns the info of a walked regular file, or of the regular file
// a symlink leads to inside the root; nil for everything else.
func fileInfo(base roots.Loc, rel string, d fs.DirEntry) fs.FileInfo {
	switch {
	case d.Type().IsRegular():
		info, err := d.Info()
		if err != nil {
			return nil
		}
		return info
	case d.Type()&fs.ModeSymlink != 0:
		info, err := base.FS().Stat(filepath.FromSlash(rel)) // os.Root: never leaves the root
		if err != nil || !info.Mode().IsRegular() {
			return nil
		}
		return info
	}
	return nil
}

func resource(r roots.Root, rel string, multi bool, info fs.FileInfo) *mcp.Resource {
	name := rel
	switch {
	case multi && r.File:
		name = r.Name
	case multi:
		name = r.Name + "/" + rel
	}
	abs := r.Path
	if r.File {
		abs = filepath.Dir(r.Path)
	}
	return &mcp.Resource{
		URI:         roots.URI(filepath.Join(abs, filepath.FromSlash(rel))),
		Name:        name,
		MIMEType:    mimeByName(path.Base(rel)),
		Size:        info.Size(),
		Annotations: &mcp.Annotations{LastModified: info.ModTime().UTC().Format(time.RFC3339)},
	}
}
