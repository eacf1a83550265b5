package fsres

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path"
	"sort"

	"github.com/grove-mcp/grove/fsres/internal/stamp"
	"github.com/grove-mcp/grove/roots"
)

// A segment is a stretch of one root's resources/list walk, kept so that the
// next pages are served without walking again: the paths of the regular files
// and symlinks the walk met after start, in walk order, complete through end
// (or through the end of the root when done), and a stamp of every directory
// the walk entered, taken before it was read.
//
// A page served from a segment re-checks, before anything is shown, the
// stamps of the directories whose listing decides that page: the ancestors
// of the cursor's path and the directories between it and the page's last
// path (identity, mtime, their .gitignore and, for a nested repository, its
// .git/index), plus the root's own directory, .gitignore, .git/index and
// .git/info/exclude. Any change drops the segment and the page is walked
// again from the cursor, so a segment never shows a name the walk would not
// show now. (A nested repository's info/exclude and the global excludes file
// are not re-checked; the watcher's [Files.Invalidate] drops the segments
// when they change.) Every path shown is also stat'ed through the root's
// handle at the time of the page, so a file gone since is left out.
type segment struct {
	key    segKey
	path   string   // the root's path, for Invalidate
	start  string   // the entries sort after start; "" for the root's first
	end    string   // the segment is complete through end
	done   bool     // ... and through the end of the root
	stream string   // not done: the huge directory that comes next, to stream (see hugedir.go)
	names  []string // every entry's path, back to back, in chunks of at most chunkSize
	ends   []uint32 // where each entry ends, counting chunkSize a chunk
	links  []bool   // entry i is a symlink (else a regular file)
	dirs   []dirStamp
	top    [4]stamp.Stamp // the root directory, .gitignore, .git/index, .git/info/exclude
	size   int            // bytes held, for the cache's bound
}

// segKey says which walk a segment belongs to: the roots in force (one URI a
// line) and the root's index among them. Sessions whose roots differ never
// share a segment; those with the same roots see the same files anyway.
type segKey struct {
	scope string
	root  int
}

// dirStamp is what a directory looked like when the walk entered it.
type dirStamp struct {
	rel              string
	dir, rule, index stamp.Stamp // the directory, its .gitignore, and .git/index if it is a nested repository
}

// topNames are the files of the root whose change changes what every
// page shows.
var topNames = [4]string{".", ".gitignore", ".git/index", ".git/info/exclude"}

// segmentDirs is how many directories a segment's walk enters once it holds a
// page: enough that a tree of small directories is walked every few dozen
// pages, not every page, while a page of a huge tree stays a short walk.
const segmentDirs = 64

// maxSegmentBytes bounds one segment (a directory of 200,000 files takes about
// 4 MiB); a larger tree or directory is served by several.
const maxSegmentBytes = 16 << 20

// len is the number of entries.
func (s *segment) len() int { return len(s.ends) }

// entry is the path of entry i. An entry lies in one chunk: it starts where
// the one before ends, or at its chunk's start.
func (s *segment) entry(i int) string {
	hi := s.ends[i]
	c := (hi - 1) >> chunkBits
	base := c << chunkBits
	lo := base
	if i > 0 && s.ends[i-1] > base {
		lo = s.ends[i-1]
	}
	return s.names[c][lo-base : hi-base]
}

// after returns the index of the first entry that sorts after last.
func (s *segment) after(last string) int {
	if last == "" {
		return 0
	}
	return sort.Search(s.len(), func(i int) bool { return comparePaths(s.entry(i), last) > 0 })
}

// covers reports whether the segment holds every entry that follows last up
// to its end.
func (s *segment) covers(last string) bool {
	if s.start != "" && (last == "" || comparePaths(last, s.start) < 0) {
		return false
	}
	return s.done || comparePaths(last, s.end) < 0
}

// valid re-checks the stamps that decide the entries after last through
// upto (through the end of the root when toEnd), against the tree under r.
func (s *segment) valid(r *os.Root, last, upto string, toEnd bool) bool {
	for i, name := range topNames {
		if stamp.At(r, name) != s.top[i] {
			return false
		}
	}
	for a := path.Dir(last); last != "" && a != "."; a = path.Dir(a) {
		i, ok := s.dir(a)
		if !ok || !s.dirs[i].same(r) {
			return false
		}
	}
	i := sort.Search(len(s.dirs), func(i int) bool { return last == "" || comparePaths(s.dirs[i].rel, last) > 0 })
	for ; i < len(s.dirs) && (toEnd || comparePaths(s.dirs[i].rel, upto) <= 0); i++ {
		if !s.dirs[i].same(r) {
			return false
		}
	}
	return true
}

// dir finds the stamp of directory rel.
func (s *segment) dir(rel string) (int, bool) {
	i := sort.Search(len(s.dirs), func(i int) bool { return comparePaths(s.dirs[i].rel, rel) >= 0 })
	return i, i < len(s.dirs) && s.dirs[i].rel == rel
}

func (d *dirStamp) same(r *os.Root) bool {
	return stamp.At(r, d.rel) == d.dir && stamp.At(r, d.rel+"/.gitignore") == d.rule && stamp.At(r, d.rel+"/.git/index") == d.index
}

// segmentBuild is a segment being walked.
type segmentBuild struct {
	segment
	chunk []byte // the chunk being filled
	bytes int    // of the chunks filled
	want  int    // entries the page needs: the segment holds at least these
}

// buildSegment walks root i of sc after last until the root ends, or the
// segment holds a page and has entered segmentDirs directories, or it is
// full. A walk skips every subtree before last.
func (f *Files) buildSegment(ctx context.Context, sc *roots.Scope, base roots.Loc, key segKey, last string, want int) (*segment, error) {
	r := sc.Roots()[key.root]
	m, err := f.matcher(r)
	if err != nil {
		return nil, err
	}
	b := &segmentBuild{segment: segment{key: key, path: r.Path, start: last}, want: want}
	for i, name := range topNames {
		b.top[i] = stamp.At(base.FS(), name)
	}
	inner := innerRoots(sc.Roots(), key.root)
	err = m.Walk(ctx, func(rel string, d fs.DirEntry) error {
		return b.visit(base.FS(), inner, last, rel, d)
	})
	b.done = err == nil
	if errors.Is(err, errStop) {
		err = nil
	}
	if err != nil {
		return nil, err
	}
	s := &b.segment
	s.names = append(s.names, string(b.chunk))
	if s.len() > 0 {
		s.end = s.entry(s.len() - 1)
	} else {
		s.end = last
	}
	s.size = b.bytes + len(b.chunk) + 5*len(s.ends) + 64
	for _, d := range s.dirs {
		s.size += len(d.rel) + 64
	}
	return s, nil
}

// visit is the walk's callback: it skips what sorts before last and records
// the directories entered and the files met.
func (b *segmentBuild) visit(r *os.Root, inner map[string]bool, last, rel string, d fs.DirEntry) error {
	if inner[rel] {
		// Another root: its files are listed once, under it.
		if d.IsDir() {
			return fs.SkipDir
		}
		return nil
	}
	if last != "" {
		if d.IsDir() && !isAncestor(rel, last) && comparePaths(rel, last) <= 0 {
			return fs.SkipDir // everything below sorts before the cursor
		}
		if !d.IsDir() && comparePaths(rel, last) <= 0 {
			return nil
		}
	}
	if d.IsDir() {
		if len(b.ends) >= b.want && len(b.dirs) >= segmentDirs {
			return errStop
		}
		info, err := d.Info()
		if err != nil {
			info = nil
		}
		if !isAncestor(rel, last) && hugeDir(r, rel, info) {
			b.stream = rel // entered fresh and huge: streamed after this segment
			return errStop
		}
		// Stamped before the walk reads it: a change made after that shows.
		b.dirs = append(b.dirs, dirStamp{rel: rel, dir: stamp.Of(info), rule: stamp.At(r, rel+"/.gitignore"), index: stamp.At(r, rel+"/.git/index")})
		return nil
	}
	if !d.Type().IsRegular() && d.Type()&fs.ModeSymlink == 0 {
		return nil
	}
	if len(rel) > chunkSize || len(b.ends) >= b.want && b.bytes+len(b.chunk)+5*len(b.ends)+len(rel) > maxSegmentBytes {
		return errStop
	}
	b.add(rel)
	b.links = append(b.links, d.Type()&fs.ModeSymlink != 0)
	return nil
}

// chunkSize is the size of the chunks that hold a segment's paths: filling
// chunks, unlike growing one string, copies each path once.
const (
	chunkBits = 20
	chunkSize = 1 << chunkBits
)

// add appends rel (at most chunkSize bytes) to the paths.
func (b *segmentBuild) add(rel string) {
	if len(b.chunk)+len(rel) > chunkSize {
		b.names = append(b.names, string(b.chunk))
		b.bytes += len(b.chunk)
		b.chunk = b.chunk[:0]
	}
	if b.chunk == nil {
		b.chunk = make([]byte, 0, min(chunkSize, 64<<10))
	}
	b.chunk = append(b.chunk, rel...)
	b.ends = append(b.ends, uint32(len(b.names)<<chunkBits+len(b.chunk)))
}
