package linediff

import (
	"strings"
	"testing"
)

func TestTailDrop(t *testing.T) {
	line := strings.Repeat("x", 99) + "\n" // 100 bytes
	tail := strings.Repeat(line, 20)       // 2,000 bytes: one whole block
	for _, tt := range []struct {
		name string
		a, b string
		want int
	}{
		{"short common tail", "a\n" + line, "b\n" + line, 0},
		{"block ends inside a line", "a\n" + tail, "b\n" + tail, 10}, // the cut is 24 bytes into the 11th line from the end
		{"block ends on a line start", "a\n" + strings.Repeat(line, 10) + strings.Repeat("y", 23) + "\n" + tail[:1000], "b\n" + strings.Repeat(line, 10) + strings.Repeat("y", 23) + "\n" + tail[:1000], 10},
		{"partial line counts", "ab\n" + strings.Repeat("x", 1021) + "\n", "cb\n" + strings.Repeat("x", 1021) + "\n", 1},
		{"no newline after the cut", "a\n" + strings.Repeat("z", 3000), "b\n" + strings.Repeat("z", 3000), 0},
		{"identical", tail, tail, 10},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var d Differ
			if got := tailDrop(d.Text(lines(tt.a)), d.Text(lines(tt.b))); got != tt.want {
				t.Errorf("tailDrop = %d, want %d", got, tt.want)
			}
		})
	}
}
