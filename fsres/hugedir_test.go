//go:build unix

package fsres

import (
	"context"
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/google/go-cmp/cmp"
	"github.com/grove-mcp/grove/fsres/internal/dirstream"
	"github.com/grove-mcp/grove/roots"
	"github.com/grove-mcp/grove/scope"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// hugeBound makes a directory of more than n entries huge for the test.
func hugeBound(t *testing.T, n int) {
	t.Helper()
	entries, size := hugeEntries, hugeMinSize
	hugeEntries, hugeMinSize = n, 0
	t.Cleanup(func() { hugeEntries, hugeMinSize = entries, size })
}

// writeFiles writes n files named prefix%04d.ext into dir.
func writeFiles(t *testing.T, dir, prefix, ext string, n int) {
	t.Helper()
	must(t, os.MkdirAll(dir, 0o755))
	for i := range n {
		must(t, os.WriteFile(filepath.Join(dir, fmt.Sprintf("%s%04d%s", prefix, i, ext)), []byte("x"), 0o644))
	}
}

// hugeTree is a root of 150 files and a few subdirectories, huge above a bound
// of 50: "big" (huge too, with a small directory inside), "small", an
// ignored directory, a .git directory, ignored files, a fifo and symlinks in
// and out.
func hugeTree(t *testing.T) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	must(t, err)
	writeFiles(t, dir, "f", ".txt", 150)
	writeFiles(t, dir, "f", ".o", 20)
	writeFiles(t, filepath.Join(dir, "big"), "b", ".txt", 120)
	writeFiles(t, filepath.Join(dir, "big", "inner"), "i", ".txt", 7)
	writeFiles(t, filepath.Join(dir, "big", "inner"), "i", ".log", 3)
	must(t, os.WriteFile(filepath.Join(dir, "big", "inner", ".gitignore"), []byte("*.log\n"), 0o644))
	writeFiles(t, filepath.Join(dir, "small"), "s", ".txt", 5)
	writeFiles(t, filepath.Join(dir, "build"), "x", ".txt", 5)
	writeFiles(t, filepath.Join(dir, ".git"), "g", "", 3)
	must(t, os.WriteFile(filepath.Join(dir, ".gitignore"), []byte("*.o\nbuild/\n"), 0o644))
	must(t, os.Symlink("small/s0000.txt", filepath.Join(dir, "link")))
	must(t, os.Symlink("/etc/passwd", filepath.Join(dir, "link-out")))
	must(t, os.Symlink("small", filepath.Join(dir, "link-dir")))
	must(t, syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644))
	return dir
}

// sortedNames is what a listing of dirs shows when no directory is huge,
// sorted by name.
func sortedNames(t *testing.T, dirs ...string) []string {
	t.Helper()
	saved := hugeEntries
	hugeEntries = 1 << 30
	defer func() { hugeEntries = saved }()
	names := rest(t, New(Options{Scope: scope.Static(testScope(t, dirs...)), PageSize: 1000}), "")
	slices.Sort(names)
	return names
}

// streamedFrom reports whether the cursor resumes inside a streamed directory.
func streamedFrom(t *testing.T, f *Files, c string, uris ...string) bool {
	t.Helper()
	cur, err := f.decodeCursor(c, uris)
	if err != nil {
		t.Fatalf("the cursor does not decode: %v", err)
	}
	return len(cur.Streams) > 0
}

// A huge directory is listed completely, each file once, with the same
// filters as a sorted listing, whatever the page size.
func TestListResourcesHugeDir(t *testing.T) {
	hugeBound(t, 50)
	dir := hugeTree(t)
	want := sortedNames(t, dir)
	if !slices.Contains(want, "big/inner/i0006.txt") || slices.Contains(want, "f0001.o") || len(want) != 150+120+7+5+3 { // and two .gitignore files, and link
		t.Fatalf("the sorted listing is not the expected one (%d): %v", len(want), want)
	}
	for _, size := range []int{1, 7, 50, 51, 100, 1000} {
		t.Run(fmt.Sprint("page ", size), func(t *testing.T) {
			f := New(Options{Scope: scope.Static(testScope(t, dir)), PageSize: size})
			first, c := page(t, f, "")
			if dirstream.Supported && c != "" && !streamedFrom(t, f, c, roots.URI(dir)) {
				t.Errorf("the first page's cursor is not in a streamed directory")
			}
			got := append(first, rest(t, f, c)...)
			if c == "" {
				got = first
			}
			if dirstream.Supported && size < len(want) && slices.IsSortedFunc(got[:size], func(a, b string) int { return comparePaths(a, b) }) && size > 10 {
				t.Errorf("the first page is in sorted order: %v", got[:size])
			}
			slices.Sort(got)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-sorted listing +huge listing):\n%s", diff)
			}
		})
	}
}

// A directory past the real bound (4,096 entries) is streamed.
func TestListResourcesHugeDirBound(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	must(t, err)
	writeFiles(t, dir, "file-with-a-longer-name-", ".txt", hugeEntries+100)
	f := New(Options{Scope: scope.Static(testScope(t, dir)), PageSize: 500})
	first, c := page(t, f, "")
	if c == "" || len(first) != 500 {
		t.Fatalf("first page: %d files, cursor %q", len(first), c)
	}
	if streamedFrom(t, f, c, roots.URI(dir)) != dirstream.Supported {
		t.Errorf("streamed: %v, want %v", !dirstream.Supported, dirstream.Supported)
	}
	got := append(first, rest(t, f, c)...)
	slices.Sort(got)
	if diff := cmp.Diff(sortedNames(t, dir), got); diff != "" {
		t.Errorf("(-sorted listing +huge listing):\n%s", diff)
	}
}

// A small root with a huge directory inside: the files before it sorted,
// it streamed, then the rest sorted again; and other roots inside are
// listed once, under themselves.
func TestListResourcesHugeSubdir(t *testing.T) {
	hugeBound(t, 50)
	dir, err := filepath.EvalSymlinks(t.TempDir())
	must(t, err)
	writeFiles(t, dir, "a", ".txt", 5)
	writeFiles(t, filepath.Join(dir, "m-big"), "b", ".txt", 130)
	writeFiles(t, filepath.Join(dir, "m-big", "deep"), "d", ".txt", 80) // huge inside huge
	writeFiles(t, filepath.Join(dir, "m-big", "own"), "o", ".txt", 4)   // another root
	writeFiles(t, filepath.Join(dir, "z"), "z", ".txt", 5)
	own := filepath.Join(dir, "m-big", "own")
	for _, tt := range []struct {
		name  string
		roots []string
	}{
		{"one root", []string{dir}},
		{"a root inside", []string{dir, own}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			want := sortedNames(t, tt.roots...)
			for _, size := range []int{1, 9, 60, 500} {
				f := New(Options{Scope: scope.Static(testScope(t, tt.roots...)), PageSize: size})
				got := rest(t, f, "")
				slices.Sort(got)
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("page %d (-sorted listing +huge listing):\n%s", size, diff)
				}
			}
		})
	}
}

// Files added, removed and renamed between pages: every file present
// throughout is listed exactly once, and nothing that never existed or is
// ignored.
func TestListResourcesHugeDirChanges(t *testing.T) {
	hugeBound(t, 50)
	for _, tt := range []struct {
		name   string
		change func(t *testing.T, dir string, page int)
	}{
		{"nothing", func(*testing.T, string, int) {}},
		{"files added", func(t *testing.T, dir string, page int) {
			writeFiles(t, dir, fmt.Sprintf("new%d-", page), ".txt", 10)
			writeFiles(t, filepath.Join(dir, "big"), fmt.Sprintf("new%d-", page), ".txt", 10)
		}},
		{"ignored files added", func(t *testing.T, dir string, page int) {
			writeFiles(t, dir, fmt.Sprintf("new%d-", page), ".o", 10)
		}},
		{"files removed", func(t *testing.T, dir string, page int) {
			for i := range 5 {
				os.Remove(filepath.Join(dir, fmt.Sprintf("f%04d.txt", page*5+i)))
				os.Remove(filepath.Join(dir, "big", fmt.Sprintf("b%04d.txt", 119-page*3-i)))
			}
		}},
		{"files renamed", func(t *testing.T, dir string, page int) {
			for i := range 3 {
				os.Rename(filepath.Join(dir, fmt.Sprintf("f%04d.txt", 149-page*3-i)), filepath.Join(dir, fmt.Sprintf("renamed%d-%d.txt", page, i)))
			}
		}},
		{"a directory added", func(t *testing.T, dir string, page int) {
			writeFiles(t, filepath.Join(dir, fmt.Sprintf("newdir%d", page)), "n", ".txt", 60)
		}},
		{"a directory removed", func(t *testing.T, dir string, page int) {
			if page == 2 {
				must(t, os.RemoveAll(filepath.Join(dir, "big")))
			}
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := hugeTree(t)
			before := sortedNames(t, dir)
			f := New(Options{Scope: scope.Static(testScope(t, dir)), PageSize: 20})
			var got []string
			c, n := "", 0
			for {
				names, next := page(t, f, c)
				got = append(got, names...)
				if next == "" {
					break
				}
				n++
				tt.change(t, dir, n)
				c = next
			}
			after := sortedNames(t, dir)
			seen := make(map[string]int)
			for _, name := range got {
				seen[name]++
				if !slices.Contains(before, name) && !slices.Contains(after, name) {
					t.Errorf("listed %s, neither there before nor after", name)
				}
			}
			for _, name := range before {
				if slices.Contains(after, name) && seen[name] != 1 {
					t.Errorf("%s, there throughout, listed %d times", name, seen[name])
				}
			}
		})
	}
}

// The mode a directory started in survives it shrinking below the bound or
// growing past it between pages.
func TestListResourcesHugeDirModeKept(t *testing.T) {
	hugeBound(t, 50)
	for _, tt := range []struct {
		name     string
		files    int // in the root at first
		streamed bool
		change   func(t *testing.T, dir string)
	}{
		{"huge shrinks", 150, dirstream.Supported, func(t *testing.T, dir string) {
			for i := range 140 {
				if i%3 != 0 {
					os.Remove(filepath.Join(dir, fmt.Sprintf("f%04d.txt", i)))
				}
			}
		}},
		{"small grows", 40, false, func(t *testing.T, dir string) {
			writeFiles(t, dir, "g", ".txt", 200)
			writeFiles(t, dir, "a", ".txt", 200)
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir, err := filepath.EvalSymlinks(t.TempDir())
			must(t, err)
			writeFiles(t, dir, "f", ".txt", tt.files)
			before := sortedNames(t, dir)
			f := New(Options{Scope: scope.Static(testScope(t, dir)), PageSize: 10})
			got, c := page(t, f, "")
			if streamedFrom(t, f, c, roots.URI(dir)) != tt.streamed {
				t.Fatalf("streamed: %v, want %v", !tt.streamed, tt.streamed)
			}
			tt.change(t, dir)
			names, c := page(t, f, c)
			got = append(got, names...)
			if c != "" && streamedFrom(t, f, c, roots.URI(dir)) != tt.streamed {
				t.Errorf("after the change, streamed: %v, want %v", !tt.streamed, tt.streamed)
			}
			if c != "" {
				got = append(got, rest(t, f, c)...)
			}
			after := sortedNames(t, dir)
			seen := make(map[string]int)
			for _, name := range got {
				seen[name]++
			}
			for _, name := range before {
				if slices.Contains(after, name) && seen[name] != 1 {
					t.Errorf("%s, there throughout, listed %d times", name, seen[name])
				}
			}
		})
	}
}

// A file ignored by .gitignore but tracked in the index is listed when its
// huge directory is streamed, as when sorted.
func TestListResourcesHugeDirTracked(t *testing.T) {
	hugeBound(t, 50)
	dir := hugeTree(t)
	must(t, os.RemoveAll(filepath.Join(dir, ".git")))
	repo, err := git.PlainInit(dir, false)
	must(t, err)
	wt, err := repo.Worktree()
	must(t, err)
	_, err = wt.Add("f0003.o")
	must(t, err)
	want := sortedNames(t, dir)
	if !slices.Contains(want, "f0003.o") {
		t.Fatalf("the sorted listing misses the tracked file: %v", want)
	}
	got := rest(t, New(Options{Scope: scope.Static(testScope(t, dir)), PageSize: 13}), "")
	slices.Sort(got)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-sorted listing +huge listing):\n%s", diff)
	}
}

// Forged or edited cursors into a streamed directory get -32602.
func TestListResourcesHugeDirBadCursor(t *testing.T) {
	hugeBound(t, 50)
	dir := hugeTree(t)
	uri := roots.URI(dir)
	f := New(Options{Scope: scope.Static(testScope(t, dir)), PageSize: 10})
	_, good := page(t, f, "")
	raw, err := base64.RawURLEncoding.DecodeString(good)
	must(t, err)
	edited := func(i int) string {
		b := slices.Clone(raw)
		b[i] ^= 1
		return base64.RawURLEncoding.EncodeToString(b)
	}
	tooMany := make([]frame, maxFrames+1)
	for i := range tooMany {
		tooMany[i].dir = "."
	}
	for name, c := range map[string]string{
		"frame count edited":    edited(1 + 1 + rootHashLen),
		"offset edited":         edited(1 + 1 + rootHashLen + 2),
		"path edited":           edited(len(raw) - cursorMACLen - 1),
		"mac edited":            edited(len(raw) - 1),
		"not an ancestor":       f.encodeCursor(cursor{RootURI: uri, Last: "f0001.txt", Streams: []frame{{dir: "big"}}}),
		"the path itself":       f.encodeCursor(cursor{RootURI: uri, Last: "big/b0001.txt", Streams: []frame{{dir: "big/b0001.txt"}}}),
		"out of order":          f.encodeCursor(cursor{RootURI: uri, Last: "big/inner/i0001.txt", Streams: []frame{{dir: "big"}, {dir: "."}}}),
		"twice":                 f.encodeCursor(cursor{RootURI: uri, Last: "big/b0001.txt", Streams: []frame{{dir: "big"}, {dir: "big"}}}),
		"no path":               f.encodeCursor(cursor{RootURI: uri, Streams: []frame{{dir: "."}}}),
		"too many":              f.encodeCursor(cursor{RootURI: uri, Last: "a/b", Streams: tooMany}),
		"another process's key": New(Options{Scope: scope.Static(testScope(t, dir))}).encodeCursor(cursor{RootURI: uri, Last: "f0001.txt", Streams: []frame{{dir: "."}}}),
	} {
		t.Run(name, func(t *testing.T) {
			_, err := f.ListResources(context.Background(), &mcp.ListResourcesRequest{Params: &mcp.ListResourcesParams{Cursor: c}})
			if got := wireCode(err); got != jsonrpc.CodeInvalidParams {
				t.Errorf("code %d (%v), want %d", got, err, jsonrpc.CodeInvalidParams)
			}
		})
	}
	if _, err := f.ListResources(context.Background(), &mcp.ListResourcesRequest{Params: &mcp.ListResourcesParams{Cursor: good}}); err != nil {
		t.Errorf("the unedited cursor: %v", err)
	}
}

// A .gitignore rule added between pages hides what is not yet listed, in a
// streamed directory as in a sorted one.
func TestListResourcesHugeDirRuleAdded(t *testing.T) {
	hugeBound(t, 50)
	for _, tt := range []struct{ name, file, rule, hidden string }{
		{"in the root", ".gitignore", "*.txt\n", "f0"},
		{"in a streamed subdirectory", "big/.gitignore", "b0*\n", "big/b0"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := hugeTree(t)
			f := New(Options{Scope: scope.Static(testScope(t, dir)), PageSize: 10})
			_, c := page(t, f, "")
			names, c := page(t, f, c) // a page later: the rule files were looked at
			fd, err := os.OpenFile(filepath.Join(dir, filepath.FromSlash(tt.file)), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
			must(t, err)
			_, err = fd.WriteString(tt.rule)
			must(t, fd.Close())
			must(t, err)
			if c == "" {
				t.Fatalf("two pages only: %v", names)
			}
			for _, name := range rest(t, f, c) {
				if strings.HasPrefix(name, tt.hidden) {
					t.Errorf("listed %s after it was ignored", name)
				}
			}
		})
	}
}

// After streaming a directory the listing goes on past it with a fresh
// walk: a segment kept from when the directory was small holds its files
// again, sorted.
func TestListResourcesHugeDirKeptSegment(t *testing.T) {
	hugeBound(t, 50)
	dir, err := filepath.EvalSymlinks(t.TempDir())
	must(t, err)
	writeFiles(t, filepath.Join(dir, "a"), "x", ".txt", 1)
	writeFiles(t, filepath.Join(dir, "m"), "f", ".txt", 30)
	writeFiles(t, dir, "z", ".txt", 2)
	f := New(Options{Scope: scope.Static(testScope(t, dir)), PageSize: 100})
	// A segment from a/x0000.txt on, through the small m/.
	if names, _ := page(t, f, f.encodeCursor(cursor{RootURI: roots.URI(dir), Last: "a/x0000.txt"})); len(names) != 32 {
		t.Fatalf("after a/x0000.txt: %v", names)
	}
	writeFiles(t, filepath.Join(dir, "m"), "g", ".txt", 100) // m/ is huge now
	got := rest(t, f, "")
	slices.Sort(got)
	if diff := cmp.Diff(sortedNames(t, dir), got); diff != "" {
		t.Errorf("(-sorted listing +listing):\n%s", diff)
	}
}

// A root is huge when it holds more entries than the bound, "." and ".."
// not counted.
func TestListResourcesHugeDirEdge(t *testing.T) {
	hugeBound(t, 50)
	for _, tt := range []struct {
		files int
		huge  bool
	}{{49, false}, {50, false}, {51, dirstream.Supported}, {200, dirstream.Supported}} {
		t.Run(fmt.Sprint(tt.files), func(t *testing.T) {
			dir, err := filepath.EvalSymlinks(t.TempDir())
			must(t, err)
			writeFiles(t, dir, "f", ".txt", tt.files)
			f := New(Options{Scope: scope.Static(testScope(t, dir)), PageSize: 10})
			_, c := page(t, f, "")
			if got := streamedFrom(t, f, c, roots.URI(dir)); got != tt.huge {
				t.Errorf("streamed: %v, want %v", got, tt.huge)
			}
		})
	}
}

// resources lists every page of f, by URI.
func resources(t *testing.T, f *Files) map[string]*mcp.Resource {
	t.Helper()
	out := make(map[string]*mcp.Resource)
	c := ""
	for {
		res, err := f.ListResources(context.Background(), &mcp.ListResourcesRequest{Params: &mcp.ListResourcesParams{Cursor: c}})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range res.Resources {
			out[r.URI] = r
		}
		if c = res.NextCursor; c == "" {
			return out
		}
	}
}

// A streamed listing describes each file as the sorted one does: URI, name,
// MIME type, size and time.
func TestListResourcesHugeDirSameResources(t *testing.T) {
	hugeBound(t, 50)
	dir := hugeTree(t)
	must(t, os.WriteFile(filepath.Join(dir, "big", "sized.go"), []byte("package x\n"), 0o644))
	old := time.Date(2001, 2, 3, 4, 5, 6, 0, time.UTC)
	must(t, os.Chtimes(filepath.Join(dir, "f0007.txt"), old, old))
	streamed := resources(t, New(Options{Scope: scope.Static(testScope(t, dir)), PageSize: 7}))
	saved := hugeEntries
	hugeEntries = 1 << 30
	sorted := resources(t, New(Options{Scope: scope.Static(testScope(t, dir)), PageSize: 7}))
	hugeEntries = saved
	if diff := cmp.Diff(sorted, streamed); diff != "" {
		t.Errorf("(-sorted +streamed):\n%s", diff)
	}
	if r := streamed[roots.URI(filepath.Join(dir, "f0007.txt"))]; r == nil || r.Annotations.LastModified != "2001-02-03T04:05:06Z" {
		t.Errorf("f0007.txt: %+v", r)
	}
}
