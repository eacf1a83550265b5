package gitfmt

import "testing"

// The one-pass check of plain names decides as the general checks do.
func TestPlainComponent(t *testing.T) {
	names := []string{"", ".", "..", "...", ".git", ".GIT", ".Git", "git~1", "GIT~1", "Git~1", ".git.", ".git ",
		".git. . ", ".git::$INDEX_ALLOCATION", ".gitignore", ".gitmodules", "git", "gitx", "g", "gi", "git~", "git~2",
		"a", "main.go", "README", "a/b", "a\x00b", `a\b`, `.git\x`, `x\.git`, ".g\u200cit", "é", "\xff", ".git\xff",
		"GIT~1.", "git~1 ", ".gi", "-n", "~", " ", ".git:", ".git:x", "G", "Gx.c", ".x", ".xy", ".xyz", ".xyzw"}
	const alphabet = ".gitGIT~1: \\/a\x00\xe2"
	for _, a := range alphabet {
		for _, b := range alphabet {
			for _, c := range alphabet {
				names = append(names, string(a)+string(b)+string(c), ".g"+string(a)+string(b)+string(c), string(a)+"git"+string(b))
			}
		}
	}
	for _, n := range names {
		if got, want := ValidPathComponent(n), validComponent(n); got != want {
			t.Errorf("ValidPathComponent(%q) = %v, the general checks say %v", n, got, want)
		}
	}
}
