package words_test

import (
	"fmt"
	"testing"

	"github.com/grove-mcp/grove/internal/words"
)

func TestCount(t *testing.T) {
	for _, tt := range []struct {
		n    int
		want string
	}{
		{0, "0 paths"},
		{1, "1 path"},
		{2, "2 paths"},
		{-1, "-1 path"},
		{11, "11 paths"},
	} {
		if got := words.Count(tt.n, "path", "paths"); got != tt.want {
			t.Errorf("Count(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
	if got := words.Plural(1, "entry", "entries"); got != "entry" {
		t.Errorf("Plural(1) = %q", got)
	}
	if got := words.Plural(3, "entry", "entries"); got != "entries" {
		t.Errorf("Plural(3) = %q", got)
	}
}

func TestList(t *testing.T) {
	for _, tt := range []struct {
		items []string
		want  string
	}{
		{nil, ""},
		{[]string{"a"}, "a"},
		{[]string{"a", "b"}, "a and b"},
		{[]string{"a", "b", "c"}, "a, b and c"},
	} {
		if got := words.List(tt.items); got != tt.want {
			t.Errorf("List(%q) = %q, want %q", tt.items, got, tt.want)
		}
	}
}

func ExampleCount() {
	fmt.Println(words.Count(1, "match", "matches"), "and", words.Count(2, "match", "matches"))
	// Output: 1 match and 2 matches
}
