// Package patchtext owns the text of git's file patches around the hunks (which internal/unified
// writes): the diff --git, mode, rename and index lines, binary files, gitlinks, type changes, --stat line
// counts, git's quoting of paths, binary detection, and how a blob too large to read is described. It
// works on bytes already read; it reads no repository.
//
//	var b bytes.Buffer
//	st := patchtext.WriteFilePatch(&b, patchtext.FilePatch{From: old, To: new}, patchtext.Format{Context: 3})
package patchtext

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/grove-mcp/grove/internal/unified"
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
	Dirty bool  // a gitlink's worktree side: the submodule has changes of its own ("-dirty")
}

// FilePatch is one file's change, contents loaded.
type FilePatch struct {
	From, To Side
	Score    int  // for a rename (From.Path != To.Path): the similarity index in percent
	Binary   bool // shown as binary whatever the content (the -diff attribute)
}

// Format is how patches are written.
type Format struct {
	Context int                         // unchanged lines around each change
	Abbrev  func(plumbing.Hash) string  // abbreviates the index line's names; nil: 7 digits
	Driver  func(path string) FuncLiner // the hunk-header rule for a path; nil: git's default rule
	// CountOnly writes the headers but not the hunks: for a file whose lines are counted, not shown.
	CountOnly bool
}

// FuncLiner says whether a line names the function it starts, and the text a hunk header carries for it.
type FuncLiner = func(line string) (string, bool)

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

// kind groups modes as git does when it decides whether a change is a type change: regular files (either
// executable bit), symbolic links, gitlinks.
func kind(m filemode.FileMode) filemode.FileMode {
	if m == filemode.Executable {
		return filemode.Regular
	}
	return m
}

// WriteFilePatch appends git's patch for fp to b, the bytes `git diff` writes for the same change, and
// returns the line counts. A change of type (a file that became a symbolic link, say) is written as git
// writes it: a deletion, then a creation.
func WriteFilePatch(b *bytes.Buffer, fp FilePatch, f Format) Stat {
	if fp.From.Mode != 0 && fp.To.Mode != 0 && kind(fp.From.Mode) != kind(fp.To.Mode) {
		del := writeOne(b, FilePatch{From: fp.From, To: Side{Path: fp.From.Path}}, f)
		add := writeOne(b, FilePatch{From: Side{Path: fp.To.Path}, To: fp.To}, f)
		return Stat{Added: add.Added, Deleted: del.Deleted, Binary: add.Binary || del.Binary, TooLarge: add.TooLarge || del.TooLarge}
	}
	return writeOne(b, fp, f)
}

func writeOne(b *bytes.Buffer, fp FilePatch, f Format) Stat {
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
		score := fp.Score
		if from.Hash == to.Hash {
			score = 100
		}
		fmt.Fprintf(b, "similarity index %d%%\nrename from %s\nrename to %s\n", score, QuotePath(oldName), QuotePath(newName))
	}
	if from.Hash == to.Hash && from.Mode != 0 && to.Mode != 0 && from.Dirty == to.Dirty {
		return Stat{}
	}
	abbrev := f.Abbrev
	if abbrev == nil {
		abbrev = func(h plumbing.Hash) string { return h.String()[:7] }
	}
	if from.Hash != to.Hash || from.Mode != to.Mode { // same commit, submodule dirty: git writes no index line
		b.WriteString("index " + abbrev(side(from)) + ".." + abbrev(side(to)))
		if from.Mode == to.Mode {
			fmt.Fprintf(b, " %06o", uint32(to.Mode))
		}
		b.WriteByte('\n')
	}
	if from.Big || to.Big {
		fmt.Fprintf(b, "Files %s and %s differ: %s\n", label("a/", oldName, from.Mode), label("b/", newName, to.Mode), bigNote(from, to))
		return Stat{TooLarge: true}
	}
	fromData, toData := content(from), content(to)
	if fp.Binary || IsBinary(fromData) || IsBinary(toData) {
		fmt.Fprintf(b, "Binary files %s and %s differ\n", label("a/", oldName, from.Mode), label("b/", newName, to.Mode))
		return Stat{Binary: true}
	}
	if len(fromData) == 0 && len(toData) == 0 {
		return Stat{}
	}
	fmt.Fprintf(b, "--- %s\n+++ %s\n", fileLabel("a/", oldName, from.Mode), fileLabel("b/", newName, to.Mode))
	if f.CountOnly {
		st := unified.Count(fromData, toData)
		return Stat{Added: st.Added, Deleted: st.Deleted}
	}
	opt := unified.Options{Context: f.Context}
	if f.Driver != nil {
		opt.FuncLine = f.Driver(name)
	}
	st := unified.Write(b, fromData, toData, opt)
	return Stat{Added: st.Added, Deleted: st.Deleted}
}

// fileLabel is label for a ---/+++ line: a name with a space gets a tab after it, quoted or not, as git
// writes it (the tab ends the name for patch programs).
func fileLabel(prefix, name string, mode filemode.FileMode) string {
	l := label(prefix, name, mode)
	if mode != 0 && strings.Contains(name, " ") {
		l += "\t"
	}
	return l
}

// side is the name an index line shows for s: zeros when absent.
func side(s Side) plumbing.Hash {
	if s.Mode == 0 {
		return plumbing.ZeroHash
	}
	return s.Hash
}

// content is what a patch shows of s: a gitlink shows the commit it records, as git writes it.
func content(s Side) []byte {
	if s.Mode == filemode.Submodule {
		if s.Dirty {
			return []byte("Subproject commit " + s.Hash.String() + "-dirty\n")
		}
		return []byte("Subproject commit " + s.Hash.String() + "\n")
	}
	return s.Data
}

func label(prefix, name string, mode filemode.FileMode) string {
	if mode == 0 {
		return "/dev/null"
	}
	return QuotePath(prefix + name)
}

// SplitLines splits data after each '\n'; the last line may lack one.
func SplitLines(data []byte) []string { return unified.SplitLines(data) }
