// Package dirent owns reading one directory's entries without following
// links: names, types and sizes, in the order of a listing (directories
// first, then by name), with the entries an ignore rule leaves out counted.
// On Linux the lstats run on the directory's own descriptor, split between
// two goroutines for big directories.
//
//	dir, _ := root.OpenFile(name, os.O_RDONLY|dirent.OpenDirFlags, 0)
//	entries, nIgnored, err := dirent.Read(ctx, dir, ignored)
package dirent

import "io/fs"

// Entry is one directory entry.
type Entry struct {
	Name string `json:"name"`
	Type string `json:"type" jsonschema:"file, dir, symlink or other"`
	Size int64  `json:"size,omitempty" jsonschema:"bytes, for files"`
}

// The types of an [Entry].
const (
	TypeFile    = "file"
	TypeDir     = "dir"
	TypeSymlink = "symlink"
	TypeOther   = "other"
)

// TypeName is the [Entry] type of a file of mode m.
func TypeName(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return TypeFile
	case m.IsDir():
		return TypeDir
	case m&fs.ModeSymlink != 0:
		return TypeSymlink
	}
	return TypeOther
}

// dirItem is an entry of a directory being listed. An empty Type marks a name
// gone between the listing and its lstat; ignored, one .gitignore (or the
// name .git) leaves out.
type dirItem struct {
	Entry
	ignored bool
}

// kept reports whether e stays in the listing.
func (e *dirItem) kept() bool { return e.Type != "" && !e.ignored }

// classify marks the entries of part that ignored says to leave out.
func classify(part []dirItem, ignored func(name string, isDir bool) bool) {
	for i := range part {
		e := &part[i]
		if e.Type != "" && ignored(e.Name, e.Type == TypeDir) {
			e.ignored = true
		}
	}
}

// mergeListing merges a and b, each sorted by name, into the order of a
// listing: directories first, then the other entries, each group by name.
// It drops gone and ignored entries and counts the ignored ones.
func mergeListing(a, b []dirItem) ([]Entry, int) {
	n, ignored := 0, 0
	for _, part := range [2][]dirItem{a, b} {
		for i := range part {
			switch {
			case part[i].ignored:
				ignored++
			case part[i].Type != "":
				n++
			}
		}
	}
	out := make([]Entry, 0, n)
	out = mergeWhere(out, a, b, true)
	out = mergeWhere(out, a, b, false)
	return out, ignored
}

// mergeWhere appends to out the kept entries of a and b that are
// directories (or, with dirs false, are not), in name order.
func mergeWhere(out []Entry, a, b []dirItem, dirs bool) []Entry {
	want := func(e *dirItem) bool { return e.kept() && (e.Type == TypeDir) == dirs }
	i, j := 0, 0
	for {
		for i < len(a) && !want(&a[i]) {
			i++
		}
		for j < len(b) && !want(&b[j]) {
			j++
		}
		switch {
		case i == len(a) && j == len(b):
			return out
		case j == len(b) || i < len(a) && a[i].Name < b[j].Name:
			out = append(out, a[i].Entry)
			i++
		default:
			out = append(out, b[j].Entry)
			j++
		}
	}
}
