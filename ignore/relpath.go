package ignore

import (
	"path"
	"strings"
)

// This file holds the checks on the relative paths callers pass in.

// cleanRel normalises rel to "" (the top) or a clean local slash path.
func cleanRel(rel string) (string, bool) {
	if isClean(rel) {
		return rel, true
	}
	rel = path.Clean(strings.TrimPrefix(rel, "/"))
	if rel == "." {
		return "", true
	}
	if rel == ".." || strings.HasPrefix(rel, "../") {
		return "", false
	}
	return rel, true
}

// gitDirPattern is what decides a path at or below a .git entry.
var gitDirPattern = &pattern{text: ".git", source: "(git directory)"}

// inGitDir reports whether a component of rel is ".git".
func inGitDir(rel string) bool {
	start := 0
	for i := 0; i <= len(rel); i++ {
		if i == len(rel) || rel[i] == '/' {
			if i-start == 4 && rel[start:i] == ".git" {
				return true
			}
			start = i + 1
		}
	}
	return false
}

// isClean reports whether rel is already a clean local path: no empty, "."
// or ".." components.
func isClean(rel string) bool {
	start := 0
	for i := 0; i <= len(rel); i++ {
		if i < len(rel) && rel[i] != '/' {
			continue
		}
		switch rel[start:i] {
		case "", ".", "..":
			return false
		}
		start = i + 1
	}
	return true
}
