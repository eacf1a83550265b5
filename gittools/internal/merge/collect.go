package merge

// Reading the three trees: only where ours and theirs differ. A subtree both sides left identical is the
// result as it stands and is never read.

import (
	"context"
	"errors"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// MaxPaths bounds the paths one merge examines (files where the sides differ, plus kept entries).
var MaxPaths = 2_000_000

// ErrTooManyPaths is returned for trees past MaxPaths.
var ErrTooManyPaths = errors.New("merge: the trees have too many entries")

// triple is one path's entry in base, ours and theirs.
type triple [3]Entry

// collected is what the tree walk found.
type collected struct {
	files map[string]*triple          // paths where ours and theirs differ (non-tree entries)
	kept  map[string]object.TreeEntry // entries (trees or files) ours and theirs share: kept as they are
	n     int
}

func (s *Store) collect(ctx context.Context, base, ours, theirs plumbing.Hash) (*collected, error) {
	c := &collected{files: map[string]*triple{}, kept: map[string]object.TreeEntry{}}
	if ours == theirs {
		c.kept[""] = object.TreeEntry{Mode: filemode.Dir, Hash: ours}
		return c, nil
	}
	return c, s.walk3(ctx, c, "", [3]plumbing.Hash{base, ours, theirs})
}

func join(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}

// walk3 reads the three trees at dir (a zero hash is an absent tree) whose ours and theirs differ.
func (s *Store) walk3(ctx context.Context, c *collected, dir string, trees [3]plumbing.Hash) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	type slot struct{ es [3]*object.TreeEntry }
	names := map[string]*slot{}
	var order []string
	for side, h := range trees {
		es, err := s.Tree(h)
		if err != nil {
			return err
		}
		if c.n += len(es); c.n > MaxPaths {
			return ErrTooManyPaths
		}
		for i := range es {
			sl := names[es[i].Name]
			if sl == nil {
				sl = &slot{}
				names[es[i].Name] = sl
				order = append(order, es[i].Name)
			}
			sl.es[side] = &es[i]
		}
	}
	for _, name := range order {
		sl := names[name]
		p := join(dir, name)
		o, t := sl.es[1], sl.es[2]
		if o != nil && t != nil && o.Mode == t.Mode && o.Hash == t.Hash {
			c.kept[p] = *o
			continue
		}
		var sub [3]plumbing.Hash
		var file triple
		hasSub, hasFile := false, false
		for side, e := range sl.es {
			switch {
			case e == nil:
			case e.Mode == filemode.Dir:
				sub[side], hasSub = e.Hash, true
			default:
				file[side], hasFile = Entry{Hash: e.Hash, Mode: e.Mode}, true
			}
		}
		if hasFile && (file[1] != file[2] || file[0].Present()) {
			c.files[p] = &file
		} else if hasFile && file[1].Present() {
			c.kept[p] = object.TreeEntry{Name: name, Mode: file[1].Mode, Hash: file[1].Hash}
		}
		if !hasSub {
			continue
		}
		if sub[1] == sub[2] && !sub[1].IsZero() {
			c.kept[p] = object.TreeEntry{Name: name, Mode: filemode.Dir, Hash: sub[1]}
			continue
		}
		if sub[1] == sub[2] && sub[0].IsZero() {
			continue
		}
		if err := s.walk3(ctx, c, p, sub); err != nil {
			return err
		}
	}
	return nil
}
