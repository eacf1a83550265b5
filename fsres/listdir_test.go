package fsres

import (
	"fmt"
	"github.com/grove-mcp/grove/fsres/internal/dirent"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestListDirectoryText(t *testing.T) {
	root, _ := testTree(t)
	cs := connect(t, newFiles(t, false, root), modern)
	var got DirListing
	text := toolOK(t, cs, "list_directory", ListDirArgs{Path: root}, &got)
	want := root + `: 11 entries
docs/
src/
.gitignore  13 B
a.txt  12 B
big.txt  2 KiB
dangling  (symlink)
empty.txt  0 B
fifo  (other)
image.png  67 B
link-inside  (symlink)
link-outside  (symlink)
(2 ignored entries not shown)
`
	if diff := cmp.Diff(want, text); diff != "" {
		t.Errorf("text mismatch (-want +got):\n%s", diff)
	}
}

func TestDirectoryTreeText(t *testing.T) {
	root, _ := testTree(t)
	cs := connect(t, newFiles(t, false, root), modern)
	var got Tree
	text := toolOK(t, cs, "directory_tree", TreeArgs{Path: root, MaxDepth: 2, MaxEntries: 14}, &got)
	want := root + `/
  .gitignore
  a.txt
  big.txt
  dangling (symlink)
  docs/
    readme.md
  empty.txt
  fifo (other)
  image.png
  link-inside (symlink)
  link-outside (symlink)
  src/
    main.go
    util/
(directories at depth 2 not expanded; call again on one of them or raise max_depth)
`
	if diff := cmp.Diff(want, text); diff != "" {
		t.Errorf("text mismatch (-want +got):\n%s", diff)
	}
}

func TestWriteIndent(t *testing.T) {
	for _, levels := range []int{0, 1, 15, 16, 17, 40} {
		var b strings.Builder
		writeIndent(&b, levels)
		if got, want := b.String(), strings.Repeat("  ", levels); got != want {
			t.Errorf("writeIndent(%d) = %q, want %q", levels, got, want)
		}
	}
}

func TestByteSize(t *testing.T) {
	// the formatting byteSize had before it appended
	fmtSize := func(n int64) string {
		if n < 1024 {
			return fmt.Sprintf("%d B", n)
		}
		div, exp := int64(1024), 0
		for m := n / 1024; m >= 1024; m /= 1024 {
			div *= 1024
			exp++
		}
		s := strings.TrimSuffix(fmt.Sprintf("%.1f", float64(n)/float64(div)), ".0")
		return s + " " + string("KMGTPE"[exp]) + "iB"
	}
	sizes := []int64{-1, 0, 1, 1023, 1024, 1025, 1535, 1536, 1996, 10 << 20, 1<<30 - 1, 1<<40 + 1, 1<<62 + 12345}
	for n := int64(1); n < 1<<50; n = n*3 + 1 {
		sizes = append(sizes, n)
	}
	for _, n := range sizes {
		if got, want := byteSize(n), fmtSize(n); got != want {
			t.Errorf("byteSize(%d) = %q, want %q", n, got, want)
		}
	}
}

// entryDir fills a directory with every kind of entry listDir meets, and
// enough files for the parallel path.
func entryDir(t *testing.T) string {
	t.Helper()
	root, _ := testTree(t)
	must(t, os.MkdirAll(filepath.Join(root, ".git", "objects"), 0o755))
	must(t, os.MkdirAll(filepath.Join(root, "build"), 0o755))
	for i := range 600 { // past parallelStatMin
		name := filepath.Join(root, "f"+strconv.Itoa(i*7919%1000))
		switch i % 5 {
		case 0:
			must(t, os.Mkdir(name+".d", 0o755))
		case 1:
			must(t, os.Symlink("a.txt", name+".lnk"))
		default:
			must(t, os.WriteFile(name+".txt", []byte(strings.Repeat("x", i)), 0o644))
		}
	}
	return root
}

// listOld lists dir the way listDir did before it read entries itself:
// os.File.ReadDir, an Info per file, one sort.
func listOld(t *testing.T, root *os.Root, ignored func(string, bool) bool) ([]Entry, int) {
	t.Helper()
	dir, err := root.OpenFile(".", os.O_RDONLY|dirent.OpenDirFlags, 0)
	must(t, err)
	defer dir.Close()
	des, err := dir.ReadDir(-1)
	must(t, err)
	var out []Entry
	n := 0
	for _, d := range des {
		if ignored(d.Name(), d.IsDir()) {
			n++
			continue
		}
		e := Entry{Name: d.Name(), Type: typeName(d.Type())}
		if e.Type == typeFile {
			info, err := d.Info()
			must(t, err)
			e.Size = info.Size()
		}
		out = append(out, e)
	}
	slices.SortFunc(out, func(a, b Entry) int {
		if (a.Type == typeDir) != (b.Type == typeDir) {
			if a.Type == typeDir {
				return -1
			}
			return 1
		}
		return strings.Compare(a.Name, b.Name)
	})
	return out, n
}

// TestListDirectoryParallel lists a directory big enough for two goroutines,
// which share the root's .gitignore matcher.
func TestListDirectoryParallel(t *testing.T) {
	dir := entryDir(t)
	root, err := os.OpenRoot(dir)
	must(t, err)
	defer root.Close()
	entries, ignored := listOld(t, root, func(name string, isDir bool) bool { // the fixture's .gitignore
		return name == ".git" || name == "build" && isDir || path.Ext(name) == ".log"
	})
	want := DirListing{Path: dir, Entries: entries, Ignored: ignored}
	cs := connect(t, newFiles(t, false, dir), modern)
	var got DirListing
	toolOK(t, cs, "list_directory", ListDirArgs{Path: dir}, &got)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("listing mismatch (-want +got):\n%s", diff)
	}
}
