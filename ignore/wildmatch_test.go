package ignore

import "testing"

func TestWildmatch(t *testing.T) {
	for _, tt := range wildmatchCases {
		if got := wildmatch(tt.pattern, tt.text, true); got != tt.glob {
			t.Errorf("wildmatch(%q, %q, pathname) = %v, want %v", tt.pattern, tt.text, got, tt.glob)
		}
		if got := wildmatch(tt.pattern, tt.text, false); got != tt.pathmatch {
			t.Errorf("wildmatch(%q, %q) = %v, want %v", tt.pattern, tt.text, got, tt.pathmatch)
		}
	}
}
