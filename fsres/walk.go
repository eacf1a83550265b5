package fsres

import (
	"context"
	"errors"
	"io/fs"
	"strings"

	"github.com/grove-mcp/grove/roots"
)

// errStop ends a walk early without being an error.
var errStop = errors.New("stop walking")

// comparePaths orders slash-separated paths by segment, the order of a
// depth-first walk that reads each directory sorted by name: a "/" sorts
// before every byte a name can hold, so "a/b" < "a-c".
func comparePaths(a, b string) int {
	n := min(len(a), len(b))
	for i := range n {
		ca, cb := a[i], b[i]
		if ca == cb {
			continue
		}
		if ca == '/' {
			return -1
		}
		if cb == '/' {
			return 1
		}
		if ca < cb {
			return -1
		}
		return 1
	}
	switch {
	case len(a) < len(b):
		return -1
	case len(a) > len(b):
		return 1
	}
	return 0
}

// isAncestor reports whether dir is a proper ancestor of rel ("." is the
// ancestor of everything but itself).
func isAncestor(dir, rel string) bool {
	if dir == "." {
		return rel != "."
	}
	return len(rel) > len(dir) && rel[len(dir)] == '/' && strings.HasPrefix(rel, dir)
}

// relTo returns rel relative to base, for rel == base or below it.
func relTo(base, rel string) string {
	if base == "." {
		return rel
	}
	if rel == base {
		return "."
	}
	return rel[len(base)+1:]
}

// walkUnder visits the non-ignored entries below the directory loc in walk
// order; fn gets their path relative to loc. It walks the whole root with the
// root's matcher (so .gitignore files above loc apply) but skips every
// subtree that cannot hold loc.
func (f *Files) walkUnder(ctx context.Context, loc roots.Loc, fn func(rel string, d fs.DirEntry) error) error {
	m, err := f.matcher(loc.Root)
	if err != nil {
		return err
	}
	base := loc.Rel
	err = m.Walk(ctx, func(rel string, d fs.DirEntry) error {
		switch {
		case isAncestor(base, rel):
			return fn(relTo(base, rel), d)
		case d.IsDir() && isAncestor(rel, base):
			return nil // on the way down to base
		case rel == base:
			return nil
		case d.IsDir():
			return fs.SkipDir
		}
		return nil
	})
	if errors.Is(err, errStop) {
		return nil
	}
	return err
}

// ignoredBase reports whether the directory loc itself is ignored, in which
// case a walk below it finds nothing.
func (f *Files) ignoredBase(loc roots.Loc) bool {
	if loc.Rel == "." {
		return false
	}
	m, err := f.matcher(loc.Root)
	if err != nil {
		return false
	}
	for dir := loc.Rel; dir != "."; dir = parentRel(dir) {
		if m.Ignored(dir, true) || dir == ".git" || strings.HasPrefix(dir, ".git/") {
			return true
		}
	}
	return false
}

// parentRel returns the parent of a slash-separated relative path.
func parentRel(rel string) string {
	i := strings.LastIndexByte(rel, '/')
	if i < 0 {
		return "."
	}
	return rel[:i]
}
