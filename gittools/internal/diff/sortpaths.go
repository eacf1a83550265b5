package diff

import "sort"

// sortChanges orders changes by path in byte order: git's diff output order (for full paths, byte order and
// git's tree order agree).
func sortChanges(cs []change) {
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].path < cs[j].path })
}

func sortStrings(s []string) { sort.Strings(s) }
