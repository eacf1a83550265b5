package fsres

import (
	"context"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/grove-mcp/grove/roots"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// listed is one resources/list entry and where it came from, for the cursor.
type listed struct {
	res     *mcp.Resource
	root    int
	rel     string
	streams []frame // the streamed directories rel lies in, with their positions
}

// ListResources serves resources/list: every non-ignored regular file under
// the roots (symlinks count when they lead to a regular file inside the same
// root), in root order and then path order, one page at a time; a huge
// directory's entries come in the file system's order instead (see
// hugedir.go). The cursor is opaque and signed; a forged or stale one gets
// -32602 "invalid cursor".
//
// A page is served from a segment of an earlier walk when one covers it and
// the directories that decide the page are unchanged (see [segment]);
// otherwise it walks from the cursor, skipping every subtree before it, and
// keeps what it walked past the page as a new segment. So paging through a
// directory of 200,000 files reads it once, not once a page.
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
	scopeKey := strings.Join(uris, "\n")
	var found []listed
	for i := start.Root; i < len(rs) && len(found) < want; i++ {
		last, streams := "", []frame(nil)
		if i == start.Root {
			last, streams = start.Last, start.Streams
		}
		more, err := f.listRoot(ctx, sc, segKey{scope: scopeKey, root: i}, len(rs) > 1, last, streams, want-len(found))
		if err != nil {
			return nil, err
		}
		found = append(found, more...)
	}
	if len(found) == want {
		found = found[:want-1]
		end := found[len(found)-1]
		res.NextCursor = f.encodeCursor(cursor{Root: end.root, RootURI: uris[end.root], Last: end.rel, Streams: end.streams})
	}
	for _, l := range found {
		res.Resources = append(res.Resources, l.res)
	}
	return res, nil
}

// listRoot returns up to need files of root key.root that come after last,
// inside the streamed directories streams (see hugedir.go).
func (f *Files) listRoot(ctx context.Context, sc *roots.Scope, key segKey, multi bool, last string, streams []frame, need int) ([]listed, error) {
	r := sc.Roots()[key.root]
	base, err := sc.Resolve(r.URI)
	if err != nil {
		return nil, nil // the root vanished: nothing to list
	}
	if r.File {
		info, err := base.Stat()
		if err != nil || !info.Mode().IsRegular() || (last != "" && comparePaths(base.Rel, last) <= 0) {
			return nil, nil
		}
		return []listed{{res: resource(r, base.Rel, multi, info), root: key.root, rel: base.Rel}}, nil
	}
	p := pager{root: r, base: base, index: key.root, multi: multi}
	defer p.close()
	if last == "" && len(streams) == 0 {
		if info, err := base.FS().Lstat("."); err == nil && hugeDir(base.FS(), ".", info) {
			streams = []frame{{dir: "."}}
		}
	}
	var out []listed
	rewalk := false
	for len(out) < need {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if len(streams) > 0 {
			// Inside a streamed directory: walk the rest of it.
			top := streams[0].dir
			m, err := f.matcher(r)
			if err != nil {
				return nil, err
			}
			inner := innerRoots(sc.Roots(), key.root)
			full := false
			f.freshRules(m, base.FS(), r, ruleDirs(top, last))
			if top == "." || !inner[top] && !m.Ignored(top, true) {
				w := newStreamWalk(ctx, m, base, r, key.root, multi, inner, last, streams, need-len(out))
				full, err = w.dir(top, modeStreamed)
				if err != nil {
					return nil, err
				}
				out = append(out, w.out...)
			}
			if full || top == "." {
				break
			}
			// Go on after it, sorted. Not from a kept segment: one walked
			// while the directory was small holds its files again.
			last, streams, rewalk = top, nil, true
			continue
		}
		var s *segment
		if !rewalk {
			s = f.pages.find(key, last)
		}
		fresh := false
		if s == nil {
			s, err = f.buildSegment(ctx, sc, base, key, last, f.opts.PageSize+1)
			if err != nil {
				return nil, err
			}
			f.pages.add(s, f.log)
			fresh, rewalk = true, false
		}
		got, next, more, ok := p.serve(s, last, need-len(out), !fresh)
		if !ok {
			f.pages.drop(s) // changed since: walk again from last
			continue
		}
		out = append(out, got...)
		if more && s.stream != "" {
			// The segment ends at a huge directory: stream it.
			last, streams = next, []frame{{dir: s.stream}}
			continue
		}
		if next == "" {
			break // the root's end
		}
		last = next
	}
	return out, nil
}

// pager serves pages of one root from segments.
type pager struct {
	root  roots.Root
	base  roots.Loc
	index int
	multi bool

	dir   string   // the directory dirFS is open on
	dirFS *os.Root // nil until an entry below the root's top is stat'ed
}

// serve returns up to need files of s after last, each stat'ed now, and, when
// s ends before the page does and the root goes on (more), the path to go on
// from (next; "" when the root ends, or the page is full). With check it
// first makes sure that the directories deciding these entries are
// unchanged; ok is false if not.
func (p *pager) serve(s *segment, last string, need int, check bool) (out []listed, next string, more, ok bool) {
	k := s.after(last)
	upto := last
	for ; k < s.len() && len(out) < need; k++ {
		rel := s.entry(k)
		upto = rel
		if info := p.info(rel, s.links[k]); info != nil {
			out = append(out, listed{res: resource(p.root, rel, p.multi, info), root: p.index, rel: rel})
		}
	}
	ended := k == s.len()
	if check && !s.valid(p.base.FS(), last, upto, ended && s.done) {
		return nil, "", false, false
	}
	if ended && !s.done && len(out) < need {
		return out, s.end, true, true
	}
	return out, "", false, true
}

// info is fileInfo for an entry of a segment: the regular file rel, or the
// regular file inside the root that the symlink rel leads to; nil for
// anything else, or if it has gone.
func (p *pager) info(rel string, link bool) fs.FileInfo {
	if link {
		info, err := p.base.FS().Stat(filepath.FromSlash(rel)) // os.Root: never leaves the root
		if err != nil || !info.Mode().IsRegular() {
			return nil
		}
		return info
	}
	dir, name := path.Split(rel)
	fsys := p.base.FS()
	if dir != "" {
		if p.dirFS == nil || p.dir != dir {
			p.close()
			r, err := fsys.OpenRoot(filepath.FromSlash(dir))
			if err != nil {
				return nil
			}
			p.dir, p.dirFS = dir, r
		}
		fsys = p.dirFS
	}
	info, err := fsys.Lstat(name)
	if err != nil || !info.Mode().IsRegular() {
		return nil
	}
	return info
}

func (p *pager) close() {
	if p.dirFS != nil {
		p.dirFS.Close()
		p.dirFS, p.dir = nil, ""
	}
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

func resource(r roots.Root, rel string, multi bool, info fs.FileInfo) *mcp.Resource {
	return resourceOf(r, rel, multi, info.Size(), info.ModTime())
}

// resourceOf is resource from a file's size and modification time.
func resourceOf(r roots.Root, rel string, multi bool, size int64, mtime time.Time) *mcp.Resource {
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
		Size:        size,
		Annotations: &mcp.Annotations{LastModified: mtime.UTC().Format(time.RFC3339)},
	}
}
