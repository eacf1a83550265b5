package fsres

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
		if e.Type != "" && ignored(e.Name, e.Type == typeDir) {
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
	want := func(e *dirItem) bool { return e.kept() && (e.Type == typeDir) == dirs }
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
