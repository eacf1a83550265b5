package fsres

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestListDirectory(t *testing.T) {
	root, outside := testTree(t)
	cs := connect(t, newFiles(t, false, root), modern)
	var got DirListing
	text := toolOK(t, cs, "list_directory", ListDirArgs{Path: root}, &got)
	want := DirListing{Path: root, Ignored: 2, Entries: []Entry{
		{Name: "docs", Type: "dir"}, {Name: "src", Type: "dir"},
		{Name: ".gitignore", Type: "file", Size: 13}, {Name: "a.txt", Type: "file", Size: 12},
		{Name: "big.txt", Type: "file", Size: 2000}, {Name: "dangling", Type: "symlink"},
		{Name: "empty.txt", Type: "file"}, {Name: "fifo", Type: "other"},
		{Name: "image.png", Type: "file", Size: int64(len(pngBytes))},
		{Name: "link-inside", Type: "symlink"}, {Name: "link-outside", Type: "symlink"},
	}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("listing mismatch (-want +got):\n%s", diff)
	}
	if !strings.Contains(text, "src/\n") || !strings.Contains(text, "(2 ignored entries not shown)") {
		t.Errorf("text: %q", text)
	}
	for _, p := range []string{outside, filepath.Join(root, "a.txt"), filepath.Join(root, "link-outside")} {
		if msg := toolErr(t, cs, "list_directory", ListDirArgs{Path: p}); strings.Contains(msg, "secret") {
			t.Errorf("%s: %q", p, msg)
		}
	}
}

func TestDirectoryTree(t *testing.T) {
	root, _ := testTree(t)
	cs := connect(t, newFiles(t, false, root), modern)
	var got Tree
	toolOK(t, cs, "directory_tree", TreeArgs{Path: root, MaxDepth: 1}, &got)
	var paths []string
	for _, e := range got.Entries {
		paths = append(paths, e.Path)
	}
	want := []string{".gitignore", "a.txt", "big.txt", "dangling", "docs", "empty.txt", "fifo", "image.png",
		"link-inside", "link-outside", "src"}
	if diff := cmp.Diff(want, paths); diff != "" || !got.DepthLimit || got.Cut {
		t.Errorf("depth 1 (depth limit %v, cut %v) mismatch (-want +got):\n%s", got.DepthLimit, got.Cut, diff)
	}
	got = Tree{}
	text := toolOK(t, cs, "directory_tree", TreeArgs{Path: "src"}, &got)
	if want := "  main.go\n  util/\n    helper.go\n"; !strings.Contains(text, want) || got.DepthLimit {
		t.Errorf("src tree %q, want it to contain %q", text, want)
	}
	got = Tree{}
	text = toolOK(t, cs, "directory_tree", TreeArgs{Path: root, MaxEntries: 4}, &got)
	if len(got.Entries) != 4 || !got.Cut || !strings.Contains(text, "cut at 4 entries") {
		t.Errorf("max_entries 4: %d entries, cut %v, %q", len(got.Entries), got.Cut, text)
	}
	if msg := toolErr(t, cs, "directory_tree", TreeArgs{Path: "build"}); !strings.Contains(msg, "ignored") {
		t.Errorf("ignored dir: %q", msg)
	}
}

func TestSearchFiles(t *testing.T) {
	root, outside := testTree(t)
	cs := connect(t, newFiles(t, false, root), modern)
	for _, tt := range []struct {
		path, pattern string
		max           int
		want          []string
		cut           bool
	}{
		{root, "**/*.go", 0, []string{"src/main.go", "src/util/helper.go"}, false},
		{root, "*.go", 0, []string{"src/main.go", "src/util/helper.go"}, false},
		{root, "src/*", 0, []string{"src/main.go", "src/util/"}, false},
		{root, "src/**", 0, []string{"src/main.go", "src/util/", "src/util/helper.go"}, false},
		{"src", "util/*.go", 0, []string{"util/helper.go"}, false},
		{root, "*.log", 0, []string{}, false},
		{root, "*.txt", 2, []string{"a.txt", "big.txt"}, true},
		{root, "[ab]*.txt", 0, []string{"a.txt", "big.txt"}, false},
	} {
		t.Run(tt.pattern, func(t *testing.T) {
			var got SearchResult
			text := toolOK(t, cs, "search_files", SearchArgs{Path: tt.path, Pattern: tt.pattern, MaxResults: tt.max}, &got)
			if diff := cmp.Diff(tt.want, got.Matches); diff != "" || got.Cut != tt.cut {
				t.Errorf("cut %v, matches mismatch (-want +got):\n%s", got.Cut, diff)
			}
			if tt.cut && !strings.Contains(text, "cut at") {
				t.Errorf("text does not note the cut: %q", text)
			}
		})
	}
	if msg := toolErr(t, cs, "search_files", SearchArgs{Path: outside, Pattern: "*"}); !strings.Contains(msg, "no such file") {
		t.Errorf("outside: %q", msg)
	}
	if msg := toolErr(t, cs, "search_files", SearchArgs{Path: root, Pattern: "[a-"}); !strings.Contains(msg, "bad pattern") {
		t.Errorf("bad pattern: %q", msg)
	}
}

func TestGrep(t *testing.T) {
	root, outside := testTree(t)
	writeTxtar(t, root, "-- bin.dat --\nhello\x00binary\n")
	cs := connect(t, newFiles(t, false, root), modern)
	var got GrepResult
	text := toolOK(t, cs, "grep", GrepArgs{Pattern: "hello", CaseInsensitive: true}, &got)
	want := []GrepMatch{
		{Path: "a.txt", Line: 1, Text: "hello"},
		{Path: "docs/readme.md", Line: 2, Text: "Say HELLO."},
		{Path: "src/main.go", Line: 4, Text: "\tprintln(\"Hello\")"},
		{Path: "src/util/helper.go", Line: 4, Text: "func Helper() string { return \"hello helper\" }"},
	}
	if diff := cmp.Diff(want, got.Matches); diff != "" {
		t.Errorf("matches mismatch (-want +got):\n%s", diff)
	}
	if got.Skipped != 3 || got.Cut { // bin.dat and image.png (NUL), big.txt (over 1 KiB)
		t.Errorf("skipped %d, cut %v", got.Skipped, got.Cut)
	}
	if !strings.Contains(text, "a.txt:1: hello\n") || strings.Contains(text, "from a log") {
		t.Errorf("text: %q", text)
	}

	text = toolOK(t, cs, "grep", GrepArgs{Pattern: "println", Path: "src", ContextLines: 1}, &got)
	if want := "main.go-3- func main() {\nmain.go:4: \tprintln(\"Hello\")\nmain.go-5- }\n"; !strings.Contains(text, want) {
		t.Errorf("context: %q, want %q", text, want)
	}
	got = GrepResult{}
	toolOK(t, cs, "grep", GrepArgs{Pattern: "Hello", Glob: "**/*.md"}, &got)
	if len(got.Matches) != 0 {
		t.Errorf("case-sensitive with glob *.md: %v", got.Matches)
	}
	got = GrepResult{}
	toolOK(t, cs, "grep", GrepArgs{Pattern: "^", Path: filepath.Join(root, "src", "main.go")}, &got)
	if len(got.Matches) != 5 || got.Matches[0].Path != "main.go" {
		t.Errorf("single file: %v", got.Matches)
	}
	if msg := toolErr(t, cs, "grep", GrepArgs{Pattern: "secret", Path: outside}); !strings.Contains(msg, "no such file") {
		t.Errorf("outside: %q", msg)
	}
	if msg := toolErr(t, cs, "grep", GrepArgs{Pattern: "("}); !strings.Contains(msg, "bad pattern") {
		t.Errorf("bad regexp: %q", msg)
	}
}

func TestGrepCut(t *testing.T) {
	root := t.TempDir()
	var archive strings.Builder
	for i := range 30 {
		fmt.Fprintf(&archive, "-- f%02d.txt --\nmatch one\nother\nmatch two\n", i)
	}
	writeTxtar(t, root, archive.String())
	cs := connect(t, newFiles(t, false, root), modern)
	for _, tt := range []struct {
		max, context int
		wantLast     GrepMatch
		wantCut      bool
	}{
		{max: 5, wantLast: GrepMatch{Path: "f02.txt", Line: 1, Text: "match one"}, wantCut: true},
		{max: 6, context: 1, wantLast: GrepMatch{Path: "f02.txt", Line: 3, Text: "match two"}, wantCut: true},
		{max: 60, wantLast: GrepMatch{Path: "f29.txt", Line: 3, Text: "match two"}},
	} {
		t.Run(fmt.Sprint(tt.max), func(t *testing.T) {
			var got GrepResult
			text := toolOK(t, cs, "grep", GrepArgs{Pattern: "match", MaxResults: tt.max, ContextLines: tt.context}, &got)
			if len(got.Matches) != tt.max || got.Cut != tt.wantCut || got.Matches[len(got.Matches)-1] != tt.wantLast {
				t.Errorf("%d matches, cut %v, last %v; want %d, %v, %v", len(got.Matches), got.Cut,
					got.Matches[len(got.Matches)-1], tt.max, tt.wantCut, tt.wantLast)
			}
			if tt.wantCut != strings.Contains(text, "cut at") {
				t.Errorf("text: %q", text)
			}
		})
	}
}

// Handlers run concurrently; run them together under -race.
func TestConcurrentRequests(t *testing.T) {
	root, _ := testTree(t)
	f := newFiles(t, false, root)
	cs := connect(t, f, modern)
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Go(func() {
			ctx := context.Background()
			if _, err := cs.ListResources(ctx, &mcp.ListResourcesParams{}); err != nil {
				t.Error(err)
			}
			args := map[string]any{"pattern": "hello", "case_insensitive": true}
			if res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "grep", Arguments: args}); err != nil || res.IsError {
				t.Errorf("grep: %v %v", res, err)
			}
			if i%2 == 0 {
				f.Invalidate(root)
			}
		})
	}
	wg.Wait()
}
