// Package words builds the small phrases of grove's text answers, so that
// every tool says "1 file" and "2 files" alike.
//
//	words.Count(n, "path", "paths") // "1 path", "3 paths"
package words

import (
	"strconv"
	"strings"
)

// Count returns n followed by the singular one when n is 1 (or -1), else by
// the plural many: Count(1, "match", "matches") is "1 match".
func Count(n int, one, many string) string {
	return strconv.Itoa(n) + " " + Plural(n, one, many)
}

// Plural returns one when n is 1 (or -1), else many, for phrases where the
// number is not right before the noun ("1 more entry").
func Plural(n int, one, many string) string {
	if n == 1 || n == -1 {
		return one
	}
	return many
}

// List joins items as an English list: "a", "a and b", "a, b and c".
func List(items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}
