package trigram

import "slices"

// comparePaths orders slash paths as a walk that reads each directory sorted by name lists them:
// by segment, "/" before every other byte, so "a/b" < "a-c" and a directory's files are contiguous.
func comparePaths(a, b string) int {
	n := min(len(a), len(b))
	for i := range n {
		ca, cb := a[i], b[i]
		switch {
		case ca == cb:
			continue
		case ca == '/':
			return -1
		case cb == '/':
			return 1
		case ca < cb:
			return -1
		}
		return 1
	}
	return len(a) - len(b)
}

// insertOrdered adds p to the walk-ordered slice order, unless it is there.
func insertOrdered(order []string, p string) []string {
	i, found := slices.BinarySearchFunc(order, p, comparePaths)
	if found {
		return order
	}
	return slices.Insert(order, i, p)
}

// deleteOrdered removes p from the walk-ordered slice order.
func deleteOrdered(order []string, p string) []string {
	i, found := slices.BinarySearchFunc(order, p, comparePaths)
	if !found {
		return order
	}
	return slices.Delete(order, i, i+1)
}
