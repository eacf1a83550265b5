// Package patchtext owns the text of diffs: unified file patches and their
// hunks (with git's default hunk headers), --stat line counts, git's quoting
// of paths, binary detection, and how a blob too large to read is described.
// It works on bytes already read; it reads no repository.
//
//	var b bytes.Buffer
//	st := patchtext.WriteFilePatch(&b, patchtext.FilePatch{From: old, To: new}, 3)
package patchtext

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// Side is one side of a file pair; mode 0 means the file is absent on that side.
type Side struct {
	Path  string
	Hash  plumbing.Hash
	Mode  filemode.FileMode
	Data  []byte
	Size  int64 // the content's size
	Big   bool  // larger than limit: not loaded
	Limit int64 // the read limit it was loaded under
}

// FilePatch is one file's change, contents loaded.
type FilePatch struct {
	From, To Side
}

// Stat counts one file's changed lines.
type Stat struct {
	Added, Deleted   int
	Binary, TooLarge bool
}

// bigNote describes the side (or sides) of a file pair too large to read, as git_show describes one blob.
func bigNote(from, to Side) string {
	var notes []string
	for _, s := range []Side{from, to} {
		if s.Big {
			notes = append(notes, (&TooLarge{Size: s.Size, Limit: s.Limit}).Error())
		}
	}
	if len(notes) == 2 && notes[0] == notes[1] {
		notes = notes[:1]
	}
	return strings.Join(notes, "; ")
}

// WriteFilePatch appends git's patch for fp to b (regexp-free; same bytes as `git diff` for the same edit
// script) and returns the line counts.
func WriteFilePatch(b *bytes.Buffer, fp FilePatch, ctx int) Stat {
	from, to := fp.From, fp.To
	name := to.Path
	if to.Mode == 0 {
		name = from.Path
	}
	oldName, newName := from.Path, to.Path
	if from.Mode == 0 {
		oldName = name
	}
	if to.Mode == 0 {
		newName = name
	}
	fmt.Fprintf(b, "diff --git %s %s\n", QuotePath("a/"+oldName), QuotePath("b/"+newName))
	switch {
	case from.Mode == 0:
		fmt.Fprintf(b, "new file mode %06o\n", uint32(to.Mode))
	case to.Mode == 0:
		fmt.Fprintf(b, "deleted file mode %06o\n", uint32(from.Mode))
	case from.Mode != to.Mode:
		fmt.Fprintf(b, "old mode %06o\nnew mode %06o\n", uint32(from.Mode), uint32(to.Mode))
	}
	if oldName != newName {
		fmt.Fprintf(b, "similarity index 100%%\nrename from %s\nrename to %s\n", QuotePath(oldName), QuotePath(newName))
	}
	if from.Hash == to.Hash && from.Mode != 0 && to.Mode != 0 {
		return Stat{}
	}
	b.WriteString("index " + abbrev(from.Hash, from.Mode) + ".." + abbrev(to.Hash, to.Mode))
	if from.Mode == to.Mode {
		fmt.Fprintf(b, " %06o", uint32(to.Mode))
	}
	b.WriteByte('\n')
	if from.Big || to.Big {
		fmt.Fprintf(b, "Files %s and %s differ: %s\n", label("a/", oldName, from.Mode), label("b/", newName, to.Mode), bigNote(from, to))
		return Stat{TooLarge: true}
	}
	if IsBinary(from.Data) || IsBinary(to.Data) || from.Mode == filemode.Submodule || to.Mode == filemode.Submodule {
		fmt.Fprintf(b, "Binary files %s and %s differ\n", label("a/", oldName, from.Mode), label("b/", newName, to.Mode))
		return Stat{Binary: true}
	}
	if len(from.Data) == 0 && len(to.Data) == 0 {
		return Stat{}
	}
	fmt.Fprintf(b, "--- %s\n+++ %s\n", label("a/", oldName, from.Mode), label("b/", newName, to.Mode))
	return writeHunks(b, from.Data, to.Data, ctx)
}

func label(prefix, name string, mode filemode.FileMode) string {
	if mode == 0 {
		return "/dev/null"
	}
	return QuotePath(prefix + name)
}

// abbrev is git's default 7-hex abbreviation; an absent side is all zeros.
func abbrev(h plumbing.Hash, mode filemode.FileMode) string {
	if mode == 0 {
		return "0000000"
	}
	return h.String()[:7]
}

// SplitLines splits data after each '\n'; the last line may lack one.
func SplitLines(data []byte) []string {
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
