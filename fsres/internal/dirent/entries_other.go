//go:build !linux

package dirent

import (
	"context"
	"io/fs"
	"os"
	"slices"
	"strings"
)

// Read lists the directory open as dir in the order of a listing
// (see [mergeListing]), each entry typed and sized by an lstat. Entries gone
// before their lstat are left out; those ignored says to leave out are
// counted.
func Read(ctx context.Context, dir *os.File, ignored func(name string, isDir bool) bool) ([]Entry, int, error) {
	des, err := dir.ReadDir(-1)
	if err != nil {
		return nil, 0, err
	}
	all := make([]dirItem, 0, len(des))
	for _, d := range des {
		if ctx.Err() != nil {
			return nil, 0, ctx.Err()
		}
		all = append(all, dirItem{Entry: entryOf(d)})
	}
	slices.SortFunc(all, func(a, b dirItem) int { return strings.Compare(a.Name, b.Name) })
	classify(all, ignored)
	entries, nIgnored := mergeListing(all, nil)
	return entries, nIgnored, nil
}

func entryOf(d fs.DirEntry) Entry {
	e := Entry{Name: d.Name(), Type: TypeName(d.Type())}
	if e.Type == TypeFile {
		if info, err := d.Info(); err == nil {
			e.Size = info.Size()
		}
	}
	return e
}
