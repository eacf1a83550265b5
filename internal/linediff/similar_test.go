package linediff

import (
	"strings"
	"testing"
)

func TestSimilarity(t *testing.T) {
	long := strings.Repeat("x", 640)
	for _, tt := range []struct {
		name string
		a, b string
		want float64
	}{
		{"both empty", "", "", 1},
		{"one empty", "", "a\n", 0},
		{"same", "a\nb\n", "a\nb\n", 1},
		{"nothing shared", "a\nb\n", "c\nd\n", 0},
		{"half of the larger", "k1\nk2\n", "k1\nk2\nx3\nx4\n", 0.5},
		{"order does not matter", "a\nb\nc\n", "c\nb\na\n", 1},
		{"repeated lines count as often as the poorer side has them", "a\na\na\nb\n", "a\nb\nb\nb\n", 0.5},
		{"line endings do not matter", "c1\r\nc2\r\n", "c1\nc2\n", 6.0 / 8},
		{"no final newline", "a\nb", "a\nb\n", 3.0 / 4},
		{"an edit in a long line costs one piece", long + "\n", long[:600] + "y" + long[601:] + "\n", 577.0 / 641}, // 9 of 10 pieces and the newline,
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := Similarity(NewProfile([]byte(tt.a)), NewProfile([]byte(tt.b))); got != tt.want {
				t.Errorf("Similarity(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
			}
			if got := Similarity(NewProfile([]byte(tt.b)), NewProfile([]byte(tt.a))); got != tt.want {
				t.Errorf("Similarity(%q, %q) = %v, want %v (the other way round)", tt.b, tt.a, got, tt.want)
			}
		})
	}
}
