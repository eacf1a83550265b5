package glob

import "testing"

func TestGlob(t *testing.T) {
	for _, tt := range []struct {
		pattern, path string
		match, below  bool // below: for path as a directory, might something under it match
	}{
		{"**/*.go", "main.go", true, true},
		{"**/*.go", "a/b/c.go", true, true},
		{"**/*.go", "a/b/c.txt", false, true},
		{"*.go", "a/b/c.go", true, true},
		{"src/*.go", "src/a.go", true, false},
		{"src/*.go", "src/x/a.go", false, false},
		{"src/*.go", "docs", false, false},
		{"src/**", "src", false, true},
		{"src/**", "src/a/b", true, true},
		{"src/**/test_*.py", "src/test_a.py", true, true},
		{"src/**/test_*.py", "src/x/y/test_a.py", true, true},
		{"src/**/test_*.py", "lib/test_a.py", false, false},
		{"cmd/*/main.go", "cmd/grove/main.go", true, false},
		{"cmd/*/main.go", "cmd/grove", false, true},
		{"cmd/*/main.go", "cmd/grove/x", false, false},
		{"a?c/[xy].txt", "abc/x.txt", true, false},
		{"a?c/[xy].txt", "abc/z.txt", false, false},
		{"./docs/*.md", "docs/readme.md", true, false},
		{"**", "anything/at/all", true, true},
	} {
		t.Run(tt.pattern+" "+tt.path, func(t *testing.T) {
			g, err := Compile(tt.pattern)
			if err != nil {
				t.Fatal(err)
			}
			if got := g.Match(tt.path); got != tt.match {
				t.Errorf("match = %v, want %v", got, tt.match)
			}
			if got := g.MayMatchBelow(tt.path); got != tt.below {
				t.Errorf("mayMatchBelow = %v, want %v", got, tt.below)
			}
		})
	}
	for _, bad := range []string{"", "[a-", "a/[/b"} {
		if _, err := Compile(bad); err == nil {
			t.Errorf("Compile(%q) succeeded", bad)
		}
	}
}
