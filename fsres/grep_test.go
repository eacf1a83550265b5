package fsres

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

const grepFixture = `
-- main.go --
package main

#include <a>
#include <b>
func free() {} // freed
-- lib/util.py --
#include <c> is not Python
def free_list(): pass
-- notes.md --
The word free, and freedom.
a.b(c literal
first
second
-- Makefile --
all: free
`

func TestGrepOptions(t *testing.T) {
	root := t.TempDir()
	writeTxtar(t, root, grepFixture)
	cs := connect(t, newFiles(t, false, root), modern)
	for _, tt := range []struct {
		name string
		args GrepArgs
		want string // the text after the summary line
	}{
		{"anchor at every line", GrepArgs{Pattern: "^#include <"}, "lib/util.py:1: #include <c> is not Python\nmain.go:3: #include <a>\nmain.go:4: #include <b>\n"},
		{"word", GrepArgs{Pattern: "free", Word: true}, "Makefile:1: all: free\nmain.go:5: func free() {} // freed\nnotes.md:1: The word free, and freedom.\n"},
		{"fixed_strings", GrepArgs{Pattern: "a.b(c", FixedStrings: true}, "notes.md:2: a.b(c literal\n"},
		{"type", GrepArgs{Pattern: "free", Type: "py"}, "lib/util.py:2: def free_list(): pass\n"},
		{"type make", GrepArgs{Pattern: "free", Type: "make"}, "Makefile:1: all: free\n"},
		{"glob and type", GrepArgs{Pattern: "free", Type: "go", Glob: "lib/**"}, ""},
		{"files_with_matches", GrepArgs{Pattern: "free", OutputMode: "files_with_matches"}, "Makefile\nlib/util.py\nmain.go\nnotes.md\n"},
		{"count", GrepArgs{Pattern: "include", OutputMode: "count"}, "lib/util.py:1\nmain.go:2\n"},
		{"before", GrepArgs{Pattern: "second", Path: "notes.md", Before: 1}, "notes.md-3- first\nnotes.md:4: second\n"},
		{"after", GrepArgs{Pattern: "a.b", Path: "notes.md", After: 1, FixedStrings: true}, "notes.md:2: a.b(c literal\nnotes.md-3- first\n"},
		{"after overrides context_lines", GrepArgs{Pattern: "first", Path: "notes.md", ContextLines: 1, After: 2}, "notes.md-2- a.b(c literal\nnotes.md:3: first\nnotes.md-4- second\n"},
		{"multiline", GrepArgs{Pattern: `first\nsecond`, Multiline: true}, "notes.md:3: first\nnotes.md:4: second\n"},
		{"case_insensitive", GrepArgs{Pattern: "THE WORD", CaseInsensitive: true}, "notes.md:1: The word free, and freedom.\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			text := toolOK(t, cs, "grep", tt.args, nil)
			_, body, _ := strings.Cut(text, "\n")
			if diff := cmp.Diff(tt.want, body); diff != "" {
				t.Errorf("answer mismatch (-want +got):\n%s\nwhole answer: %q", diff, text)
			}
		})
	}
	for _, tt := range []struct {
		args    GrepArgs
		wantErr string
	}{
		{GrepArgs{Pattern: `a\nb`}, "set multiline"},
		{GrepArgs{Pattern: "x", Type: "klingon"}, "unknown file type"},
		{GrepArgs{Pattern: "x", OutputMode: "lines"}, "must be one of"},
	} {
		if msg := toolErr(t, cs, "grep", tt.args); !strings.Contains(msg, tt.wantErr) {
			t.Errorf("%+v: %q, want %q", tt.args, msg, tt.wantErr)
		}
	}
}

func TestGrepStructured(t *testing.T) {
	root := t.TempDir()
	writeTxtar(t, root, grepFixture)
	cs := connect(t, newFiles(t, false, root), modern)
	var got GrepResult
	toolOK(t, cs, "grep", GrepArgs{Pattern: "free", OutputMode: "count"}, &got)
	want := []GrepCount{{"Makefile", 1}, {"lib/util.py", 1}, {"main.go", 1}, {"notes.md", 1}}
	if diff := cmp.Diff(want, got.Counts); diff != "" || got.Total != 4 || got.Files != 4 {
		t.Errorf("counts mismatch (-want +got):\n%s; total %d, searched %d", diff, got.Total, got.Files)
	}
	got = GrepResult{}
	toolOK(t, cs, "grep", GrepArgs{Pattern: "free", OutputMode: "files_with_matches", MaxResults: 2}, &got)
	if diff := cmp.Diff([]string{"Makefile", "lib/util.py"}, got.Listed); diff != "" || !got.Cut {
		t.Errorf("files mismatch (-want +got):\n%s; cut %v", diff, got.Cut)
	}
}

// The answer names the size limit of the files it skipped.
func TestGrepSaysLimit(t *testing.T) {
	root := t.TempDir()
	writeTxtar(t, root, "-- small.txt --\nneedle\n")
	must(t, os.WriteFile(filepath.Join(root, "big.txt"), []byte(strings.Repeat("needle\n", 300)), 0o644))
	cs := connect(t, newFiles(t, false, root), modern)
	text := toolOK(t, cs, "grep", GrepArgs{Pattern: "needle"}, nil)
	if !strings.Contains(text, "1 above the 1 KiB limit skipped") {
		t.Errorf("answer %q does not name the limit", text)
	}
}

// Files deleted, grown, replaced by FIFOs or created while the search runs
// leave it whole: no error, no hang, deleted files missing.
func TestGrepTreeEdited(t *testing.T) {
	root := t.TempDir()
	var archive strings.Builder
	for i := range 40 {
		fmt.Fprintf(&archive, "-- f%02d.txt --\nneedle %d\n", i, i)
	}
	writeTxtar(t, root, archive.String())
	cs := connect(t, newFiles(t, false, root), modern)
	var once sync.Once
	testHookGrepFile = func(rel string) {
		once.Do(func() {
			must(t, os.Remove(filepath.Join(root, "f30.txt")))
			must(t, os.WriteFile(filepath.Join(root, "f31.txt"), []byte(strings.Repeat("needle grown\n", 20)), 0o644))
			must(t, os.WriteFile(filepath.Join(root, "f99.txt"), []byte("needle new\n"), 0o644))
			if runtime.GOOS != "windows" {
				must(t, os.Remove(filepath.Join(root, "f32.txt")))
				must(t, mkfifo(filepath.Join(root, "f32.txt")))
			}
		})
	}
	t.Cleanup(func() { testHookGrepFile = nil })
	var got GrepResult
	toolOK(t, cs, "grep", GrepArgs{Pattern: "needle"}, &got)
	for _, m := range got.Matches {
		if m.Path == "f30.txt" || m.Path == "f32.txt" && runtime.GOOS != "windows" {
			t.Errorf("a file gone before it was read was found: %v", m)
		}
	}
	if len(got.Matches) < 37 {
		t.Errorf("%d matches, want the untouched files' 37 at least", len(got.Matches))
	}
}

// A directory of 200,000 files is searched whole; the answer counts them.
func TestGrepHugeDirectory(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 200,000 files")
	}
	root := t.TempDir()
	dir := filepath.Join(root, "many")
	must(t, os.Mkdir(dir, 0o755))
	hay := ""
	for i := range 200_000 {
		name := filepath.Join(dir, fmt.Sprintf("f%06d", i))
		switch {
		case i%50_000 == 7:
			must(t, os.WriteFile(name, []byte("needle\n"), 0o644))
		case i%50_000 == 0: // ext4 allows 65,000 links to a file
			hay = name
			must(t, os.WriteFile(hay, []byte("hay\n"), 0o644))
		default:
			must(t, os.Link(hay, name)) // cheaper than writes; the walk sees regular files all the same
		}
	}
	cs := connect(t, newFiles(t, false, root), modern)
	var got GrepResult
	start := time.Now()
	toolOK(t, cs, "grep", GrepArgs{Pattern: "needle"}, &got)
	t.Logf("grep of 200,000 files: %v", time.Since(start))
	want := []GrepMatch{{"many/f000007", 1, "needle"}, {"many/f050007", 1, "needle"}, {"many/f100007", 1, "needle"}, {"many/f150007", 1, "needle"}}
	if diff := cmp.Diff(want, got.Matches); diff != "" || got.Files != 200_000 {
		t.Errorf("matches mismatch (-want +got):\n%s; %d files searched", diff, got.Files)
	}
}
