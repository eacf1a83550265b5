package scan

import "github.com/grove-mcp/grove/gittools/internal/gitfmt"

// diffIndex returns the names whose entries differ between two indexes in what the Y column depends on
// (stages, object, mode, size, flags): added, removed or changed. Stat times alone don't count, so an
// index that git merely refreshed changes nothing.
func diffIndex(a, b *gitfmt.Index) []string {
	var out []string
	i, j := 0, 0
	for i < len(a.Entries) || j < len(b.Entries) {
		switch {
		case j == len(b.Entries) || i < len(a.Entries) && a.Entries[i].Name < b.Entries[j].Name:
			out = append(out, a.Entries[i].Name)
			i = nextName(a, i)
		case i == len(a.Entries) || b.Entries[j].Name < a.Entries[i].Name:
			out = append(out, b.Entries[j].Name)
			j = nextName(b, j)
		default:
			ni, nj := nextName(a, i), nextName(b, j)
			if !sameEntries(a.Entries[i:ni], b.Entries[j:nj]) {
				out = append(out, a.Entries[i].Name)
			}
			i, j = ni, nj
		}
	}
	return out
}

// nextName returns the position of the first entry after i with another name.
func nextName(idx *gitfmt.Index, i int) int {
	n := idx.Entries[i].Name
	for i++; i < len(idx.Entries) && idx.Entries[i].Name == n; i++ {
	}
	return i
}

func sameEntries(a, b []gitfmt.IndexEntry) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		x, y := a[k], b[k]
		if x.Stage != y.Stage || x.Hash != y.Hash || x.Mode != y.Mode || x.Size != y.Size ||
			x.SkipWorktree != y.SkipWorktree || x.IntentToAdd != y.IntentToAdd {
			return false
		}
	}
	return true
}
