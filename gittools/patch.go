package gittools

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// side is one side of a file pair; mode 0 means the file is absent on that side.
type side struct {
	path  string
	hash  plumbing.Hash
	mode  filemode.FileMode
	data  []byte
	size  int64 // the content's size
	big   bool  // larger than limit: not loaded
	limit int64 // the read limit it was loaded under
}

// filePatch is one file's change, contents loaded.
type filePatch struct {
	from, to side
}

// patchStat counts one file's changed lines.
type patchStat struct {
	added, deleted   int
	binary, tooLarge bool
}

// bigNote describes the side (or sides) of a file pair too large to read, as git_show describes one blob.
func bigNote(from, to side) string {
	var notes []string
	for _, s := range []side{from, to} {
		if s.big {
			notes = append(notes, (&tooLarge{size: s.size, limit: s.limit}).Error())
		}
	}
	if len(notes) == 2 && notes[0] == notes[1] {
		notes = notes[:1]
	}
	return strings.Join(notes, "; ")
}

// writeFilePatch appends git's patch for fp to b (regexp-free; same bytes as `git diff` for the same edit
// script) and returns the line counts.
func writeFilePatch(b *bytes.Buffer, fp filePatch, ctx int) patchStat {
	from, to := fp.from, fp.to
	name := to.path
	if to.mode == 0 {
		name = from.path
	}
	oldName, newName := from.path, to.path
	if from.mode == 0 {
		oldName = name
	}
	if to.mode == 0 {
		newName = name
	}
	fmt.Fprintf(b, "diff --git %s %s\n", quotePath("a/"+oldName), quotePath("b/"+newName))
	switch {
	case from.mode == 0:
		fmt.Fprintf(b, "new file mode %06o\n", uint32(to.mode))
	case to.mode == 0:
		fmt.Fprintf(b, "deleted file mode %06o\n", uint32(from.mode))
	case from.mode != to.mode:
		fmt.Fprintf(b, "old mode %06o\nnew mode %06o\n", uint32(from.mode), uint32(to.mode))
	}
	if oldName != newName {
		fmt.Fprintf(b, "similarity index 100%%\nrename from %s\nrename to %s\n", quotePath(oldName), quotePath(newName))
	}
	if from.hash == to.hash && from.mode != 0 && to.mode != 0 {
		return patchStat{}
	}
	b.WriteString("index " + abbrev(from.hash, from.mode) + ".." + abbrev(to.hash, to.mode))
	if from.mode == to.mode {
		fmt.Fprintf(b, " %06o", uint32(to.mode))
	}
	b.WriteByte('\n')
	if from.big || to.big {
		fmt.Fprintf(b, "Files %s and %s differ: %s\n", label("a/", oldName, from.mode), label("b/", newName, to.mode), bigNote(from, to))
		return patchStat{tooLarge: true}
	}
	if isBinary(from.data) || isBinary(to.data) || from.mode == filemode.Submodule || to.mode == filemode.Submodule {
		fmt.Fprintf(b, "Binary files %s and %s differ\n", label("a/", oldName, from.mode), label("b/", newName, to.mode))
		return patchStat{binary: true}
	}
	if len(from.data) == 0 && len(to.data) == 0 {
		return patchStat{}
	}
	fmt.Fprintf(b, "--- %s\n+++ %s\n", label("a/", oldName, from.mode), label("b/", newName, to.mode))
	return writeHunks(b, from.data, to.data, ctx)
}

func label(prefix, name string, mode filemode.FileMode) string {
	if mode == 0 {
		return "/dev/null"
	}
	return quotePath(prefix + name)
}

// abbrev is git's default 7-hex abbreviation; an absent side is all zeros.
func abbrev(h plumbing.Hash, mode filemode.FileMode) string {
	if mode == 0 {
		return "0000000"
	}
	return h.String()[:7]
}

// splitLines splits data after each '\n'; the last line may lack one.
func splitLines(data []byte) []string {
	if len(data) == 0 {
		return nil
	}
	n := bytes.Count(data, []byte{'\n'})
	if data[len(data)-1] != '\n' {
		n++
	}
	lines := make([]string, 0, n)
	s := string(data)
	for len(s) > 0 {
		i := indexNL(s)
		lines = append(lines, s[:i])
		s = s[i:]
	}
	return lines
}

func indexNL(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			return i + 1
		}
	}
	return len(s)
}

// hunkHeader writes "@@ -s,c +s,c @@", with git's rules: a count of 1 is omitted, and an empty range
// names the line before it.
func hunkHeader(b *bytes.Buffer, s1, c1, s2, c2 int, fn string) {
	b.WriteString("@@ -")
	hunkRange(b, s1, c1)
	b.WriteString(" +")
	hunkRange(b, s2, c2)
	b.WriteString(" @@")
	if fn != "" {
		b.WriteByte(' ')
		b.WriteString(fn)
	}
	b.WriteByte('\n')
}

func hunkRange(b *bytes.Buffer, start, count int) {
	if count == 0 {
		start--
	}
	b.WriteString(strconv.Itoa(start))
	if count != 1 {
		b.WriteByte(',')
		b.WriteString(strconv.Itoa(count))
	}
}
