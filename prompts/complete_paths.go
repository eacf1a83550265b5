package prompts

import (
	"cmp"
	"context"
	"errors"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"github.com/grove-mcp/grove/roots"
)

// maxVisits bounds the entries one path completion walks, so that a short prefix in a huge tree answers quickly.
// Past it the answer says hasMore without a total.
const maxVisits = 20000

var errBudget = errors.New("completion walk budget spent")

// pathQuery is a typed path value: the absolute prefix to match, and the form to answer in.
type pathQuery struct {
	prefix string // absolute; "" matches everything
	dirs   bool   // complete directories (repo_path) instead of files (path)
	uri    bool   // answer file:// URIs
	base   string // when not "", answer paths relative to this directory (the first root's)
}

// newPathQuery reads value as Resolve would: a file:// URI, an absolute path, or a path relative to the first
// root. It reports false for a URI it cannot parse.
func newPathQuery(sc *roots.Scope, value string, dirs bool) (pathQuery, bool) {
	q := pathQuery{prefix: value, dirs: dirs}
	switch {
	case value == "" || filepath.IsAbs(value):
	case roots.IsURI(value):
		abs, err := roots.Parse(value)
		if err != nil {
			return q, false
		}
		if strings.HasSuffix(value, "/") && !strings.HasSuffix(abs, string(filepath.Separator)) {
			abs += string(filepath.Separator)
		}
		q.prefix, q.uri = abs, true
	default:
		first := sc.Roots()[0]
		q.base = first.Path
		if first.File {
			q.base = filepath.Dir(first.Path)
		}
		q.prefix = q.base + string(filepath.Separator) + filepath.FromSlash(value)
	}
	return q, true
}

// show turns a matching absolute path into the form the client typed.
func (q pathQuery) show(abs string) string {
	switch {
	case q.uri:
		return roots.URI(abs)
	case q.base != "":
		if rel, err := filepath.Rel(q.base, abs); err == nil {
			return filepath.ToSlash(rel)
		}
	}
	return abs
}

// related reports whether dir is on the way to the prefix or below it: whether walking it can find matches.
func (q pathQuery) related(dir string) bool {
	dir += string(filepath.Separator)
	return strings.HasPrefix(dir, q.prefix) || strings.HasPrefix(q.prefix, dir)
}

// completePaths returns the directories (dirs) or files under the roots that match value: matching roots first,
// then entries shallowest first, then in lexical order. more says the walk stopped early.
func (p *Prompts) completePaths(ctx context.Context, sc *roots.Scope, value string, dirs bool) ([]string, bool) {
	q, ok := newPathQuery(sc, value, dirs)
	if !ok {
		return nil, false
	}
	var first, found []string
	seen := map[string]bool{}
	budget := maxVisits
	for _, r := range sc.Roots() {
		if r.File != dirs && strings.HasPrefix(r.Path, q.prefix) && !seen[r.Path] {
			seen[r.Path] = true
			first = append(first, q.show(r.Path))
		}
	}
	more := false
	for _, r := range sc.Roots() {
		if r.File || !q.related(r.Path) {
			continue
		}
		err := p.walk(ctx, r, q, &budget, func(abs string) {
			if !seen[abs] {
				seen[abs] = true
				found = append(found, abs)
			}
		})
		if err != nil {
			more = true
			break
		}
	}
	slices.SortFunc(found, func(a, b string) int {
		return cmp.Or(cmp.Compare(depth(a), depth(b)), strings.Compare(a, b))
	})
	for _, abs := range found {
		first = append(first, q.show(abs))
	}
	return first, more
}

// walk calls add for every entry under root that matches q, skipping ignored files and directories that cannot
// match. It stops with errBudget when budget entries have been visited, or with the context's error.
func (p *Prompts) walk(ctx context.Context, r roots.Root, q pathQuery, budget *int, add func(abs string)) error {
	root := r.Path
	m, err := p.opts.Files.Matcher(r)
	if err != nil {
		p.opts.Logger.Debug("completing paths: reading ignore rules", "root", root, "err", err)
		return nil
	}
	err = m.Walk(ctx, func(rel string, d fs.DirEntry) error {
		if *budget--; *budget < 0 {
			return errBudget
		}
		abs := filepath.Join(root, filepath.FromSlash(rel))
		if d.IsDir() {
			if !q.related(abs) {
				return fs.SkipDir
			}
			if q.dirs && strings.HasPrefix(abs, q.prefix) {
				add(abs)
			}
			return nil
		}
		if !q.dirs && strings.HasPrefix(abs, q.prefix) && (d.Type().IsRegular() || d.Type()&fs.ModeSymlink != 0) {
			add(abs)
		}
		return nil
	})
	if err != nil {
		p.opts.Logger.Debug("completing paths: walk stopped", "root", root, "err", err)
	}
	return err
}

func depth(abs string) int { return strings.Count(abs, string(filepath.Separator)) }
