package fsres

import (
	"context"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/google/go-cmp/cmp"
	"github.com/grove-mcp/grove/ignore"
	"github.com/grove-mcp/grove/roots"
	"github.com/grove-mcp/grove/scope"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// page lists one page after cursor and returns the names and the next cursor.
func page(t *testing.T, f *Files, cursor string) ([]string, string) {
	t.Helper()
	res, err := f.ListResources(context.Background(), &mcp.ListResourcesRequest{Params: &mcp.ListResourcesParams{Cursor: cursor}})
	if err != nil {
		t.Fatalf("page after %q: %v", cursor, err)
	}
	var names []string
	for _, r := range res.Resources {
		names = append(names, r.Name)
	}
	return names, res.NextCursor
}

// rest lists every page from cursor on.
func rest(t *testing.T, f *Files, cursor string) []string {
	t.Helper()
	var all []string
	for {
		names, next := page(t, f, cursor)
		all = append(all, names...)
		if next == "" {
			return all
		}
		cursor = next
	}
}

// walked is what resources/list must show of dir after the path after: a
// fresh matcher's walk, keeping regular files and symlinks to regular files
// inside dir.
func walked(t *testing.T, dir, after string) []string {
	t.Helper()
	m, err := ignore.New(dir)
	must(t, err)
	r, err := os.OpenRoot(dir)
	must(t, err)
	defer r.Close()
	var out []string
	err = m.Walk(context.Background(), func(rel string, d fs.DirEntry) error {
		if d.IsDir() || comparePaths(rel, after) <= 0 {
			return nil
		}
		if info, err := r.Stat(filepath.FromSlash(rel)); err == nil && info.Mode().IsRegular() {
			out = append(out, rel)
		}
		return nil
	})
	must(t, err)
	return out
}

// segmentTree writes n files per directory into top and sub/deeper, and
// a .gitignore that hides *.o.
func segmentTree(t *testing.T, n int) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	must(t, err)
	must(t, os.MkdirAll(filepath.Join(dir, "sub", "deeper"), 0o755))
	must(t, os.MkdirAll(filepath.Join(dir, "zempty"), 0o755))
	must(t, os.WriteFile(filepath.Join(dir, ".gitignore"), []byte("*.o\n"), 0o644))
	for i := range n {
		for _, d := range []string{"", "sub", "sub/deeper"} {
			must(t, os.WriteFile(filepath.Join(dir, d, fmt.Sprintf("f%02d.txt", i)), []byte("x"), 0o644))
			must(t, os.WriteFile(filepath.Join(dir, d, fmt.Sprintf("f%02d.o", i)), []byte("x"), 0o644))
		}
	}
	must(t, os.Symlink("sub/f00.txt", filepath.Join(dir, "link")))
	must(t, os.Symlink("/etc/passwd", filepath.Join(dir, "link-out")))
	return dir
}

// Paging from segments lists exactly what walking lists, whatever the page
// size, and walks once when nothing changes.
func TestListResourcesSegmentPages(t *testing.T) {
	dir := segmentTree(t, 12)
	want := walked(t, dir, "")
	for _, size := range []int{1, 2, 5, 7, 100} {
		t.Run(fmt.Sprint(size), func(t *testing.T) {
			f := New(Options{Scope: scope.Static(testScope(t, dir)), PageSize: size})
			if diff := cmp.Diff(want, rest(t, f, "")); diff != "" {
				t.Errorf("listing mismatch (-want +got):\n%s", diff)
			}
			if size > len(want) {
				return
			}
			// Past the first page, segmentDirs directories per walk at most: this tree has 4.
			if f.pages.added != 1 {
				t.Errorf("%d walks for one listing of an unchanged tree, want 1", f.pages.added)
			}
		})
	}
}

// A tree of more directories than one segment walks is listed by several,
// each walked once.
func TestListResourcesSegmentChain(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	must(t, err)
	for i := range 3 * segmentDirs {
		d := filepath.Join(dir, fmt.Sprintf("d%03d", i))
		must(t, os.Mkdir(d, 0o755))
		must(t, os.WriteFile(filepath.Join(d, "a.txt"), nil, 0o644))
		must(t, os.WriteFile(filepath.Join(d, "b.txt"), nil, 0o644))
	}
	f := New(Options{Scope: scope.Static(testScope(t, dir)), PageSize: 3})
	if diff := cmp.Diff(walked(t, dir, ""), rest(t, f, "")); diff != "" {
		t.Errorf("listing mismatch (-want +got):\n%s", diff)
	}
	if f.pages.added < 3 || f.pages.added > 4 {
		t.Errorf("%d walks for %d directories, want 3 or 4", f.pages.added, 3*segmentDirs)
	}
}

// A change to the tree after a page shows in the next ones, as a walk would
// show it, and a file that .gitignore now hides never shows.
func TestListResourcesSegmentChanges(t *testing.T) {
	for _, tt := range []struct {
		name   string
		setup  func(t *testing.T, dir string) // before the first page
		change func(t *testing.T, dir string)
	}{
		{"ignored file tracked", func(t *testing.T, dir string) {
			_, err := git.PlainInit(dir, false)
			must(t, err)
		}, func(t *testing.T, dir string) {
			repo, err := git.PlainOpen(dir)
			must(t, err)
			wt, err := repo.Worktree()
			must(t, err)
			_, err = wt.Add("sub/f11.o")
			must(t, err)
		}},
		{"ignored file tracked in a nested repository", func(t *testing.T, dir string) {
			_, err := git.PlainInit(filepath.Join(dir, "sub"), false)
			must(t, err)
			must(t, os.WriteFile(filepath.Join(dir, "sub", ".gitignore"), []byte("*.o\n"), 0o644))
		}, func(t *testing.T, dir string) {
			repo, err := git.PlainOpen(filepath.Join(dir, "sub"))
			must(t, err)
			wt, err := repo.Worktree()
			must(t, err)
			_, err = wt.Add("f11.o")
			must(t, err)
		}},
		{"file added", nil, func(t *testing.T, dir string) {
			must(t, os.WriteFile(filepath.Join(dir, "f05b.txt"), nil, 0o644))
		}},
		{"file added below", nil, func(t *testing.T, dir string) {
			must(t, os.WriteFile(filepath.Join(dir, "sub", "deeper", "g.txt"), nil, 0o644))
		}},
		{"file added to an empty directory", nil, func(t *testing.T, dir string) {
			must(t, os.WriteFile(filepath.Join(dir, "zempty", "new.txt"), nil, 0o644))
		}},
		{"file removed", nil, func(t *testing.T, dir string) {
			must(t, os.Remove(filepath.Join(dir, "f09.txt")))
		}},
		{"file renamed", nil, func(t *testing.T, dir string) {
			must(t, os.Rename(filepath.Join(dir, "f09.txt"), filepath.Join(dir, "f10.5.txt")))
		}},
		{".gitignore edited in place", nil, func(t *testing.T, dir string) {
			f, err := os.OpenFile(filepath.Join(dir, ".gitignore"), os.O_WRONLY|os.O_APPEND, 0)
			must(t, err)
			_, err = f.WriteString("f1*.txt\n")
			must(t, f.Close())
			must(t, err)
		}},
		{".gitignore added below", nil, func(t *testing.T, dir string) {
			must(t, os.WriteFile(filepath.Join(dir, "sub", "deeper", ".gitignore"), []byte("*.txt\n"), 0o644))
		}},
		{"directory replaced", nil, func(t *testing.T, dir string) {
			must(t, os.Rename(filepath.Join(dir, "sub", "deeper"), filepath.Join(dir, "old")))
			must(t, os.MkdirAll(filepath.Join(dir, "sub", "deeper"), 0o755))
			must(t, os.WriteFile(filepath.Join(dir, "sub", "deeper", "only.txt"), nil, 0o644))
		}},
		{"nothing", nil, func(*testing.T, string) {}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := segmentTree(t, 12)
			if tt.setup != nil {
				tt.setup(t, dir)
			}
			f := New(Options{Scope: scope.Static(testScope(t, dir)), PageSize: 5})
			first, cursor := page(t, f, "")
			if cursor == "" {
				t.Fatalf("one page only: %v", first)
			}
			tt.change(t, dir)
			if diff := cmp.Diff(walked(t, dir, first[len(first)-1]), rest(t, f, cursor)); diff != "" {
				t.Errorf("after the change (-want +got):\n%s", diff)
			}
		})
	}
}

var discard = slog.New(slog.DiscardHandler)

// switchScope is a scope provider whose roots a test changes.
type switchScope struct{ sc atomic.Pointer[roots.Scope] }

func (s *switchScope) Scope(mcp.Request) (*roots.Scope, mcp.InputRequestMap) { return s.sc.Load(), nil }

// A segment walked for one set of roots never serves another: with a root
// inside the first, its files are listed once, under it.
func TestListResourcesSegmentScopes(t *testing.T) {
	dir := segmentTree(t, 3)
	sub := filepath.Join(dir, "sub")
	var sw switchScope
	sw.sc.Store(testScope(t, dir))
	f := New(Options{Scope: &sw, PageSize: 2})
	first, cursor := page(t, f, "")
	rest(t, f, cursor) // the whole root walked, sub/ included
	sw.sc.Store(testScope(t, dir, sub))
	after := first[len(first)-1]
	var want []string
	for _, rel := range walked(t, dir, after) {
		if !isAncestor("sub", rel) {
			want = append(want, filepath.Base(dir)+"/"+rel)
		}
	}
	for _, rel := range walked(t, sub, "") {
		want = append(want, "sub/"+rel)
	}
	if diff := cmp.Diff(want, rest(t, f, cursor)); diff != "" {
		t.Errorf("listing with a nested root (-want +got):\n%s", diff)
	}
}

func TestListResourcesSegmentInvalidate(t *testing.T) {
	dir := segmentTree(t, 3)
	f := New(Options{Scope: scope.Static(testScope(t, dir)), PageSize: 2})
	page(t, f, "")
	f.Invalidate(filepath.Join(dir, "sub"))
	if n := len(f.pages.list); n != 0 {
		t.Errorf("%d segments kept after Invalidate, want 0", n)
	}
}

func TestSegmentsBounds(t *testing.T) {
	now := time.Unix(1e9, 0)
	c := &segments{now: func() time.Time { return now }}
	seg := func(i, size int) *segment {
		return &segment{key: segKey{scope: "s", root: i}, path: "/r", done: true, size: size}
	}
	for i := range maxSegments + 3 {
		c.add(seg(i, 1), discard)
	}
	if len(c.list) != maxSegments || c.list[0].key.root != 3 {
		t.Errorf("%d segments, oldest %d; want %d, oldest 3", len(c.list), c.list[0].key.root, maxSegments)
	}
	c.find(segKey{scope: "s", root: 3}, "") // now the most recently used
	c.add(seg(100, maxSegmentsBytes-maxSegments+2), discard)
	var kept []int
	for _, u := range c.list {
		kept = append(kept, u.key.root)
	}
	if !slices.Contains(kept, 3) || slices.Contains(kept, 4) || c.bytes > maxSegmentsBytes {
		t.Errorf("kept %v (%d bytes): want 3 (recently used) kept, 4 dropped, at most %d bytes", kept, c.bytes, maxSegmentsBytes)
	}
	now = now.Add(segmentIdle)
	c.sweep()
	if len(c.list) != 0 || c.bytes != 0 {
		t.Errorf("after the idle time: %d segments, %d bytes; want none", len(c.list), c.bytes)
	}
}

// Paths are kept in chunks; one that does not fit starts the next.
func TestSegmentChunks(t *testing.T) {
	b := &segmentBuild{}
	var want []string
	for i := 0; len(b.names) < 3; i++ {
		rel := fmt.Sprintf("dir%d/%s", i, strings.Repeat("x", i%977))
		want = append(want, rel)
		b.add(rel)
	}
	s := &b.segment
	s.names = append(s.names, string(b.chunk))
	var got []string
	for i := range s.len() {
		got = append(got, s.entry(i))
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("entries mismatch (-want +got):\n%s", diff)
	}
}
