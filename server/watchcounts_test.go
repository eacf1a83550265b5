package server

import (
	"strings"
	"testing"
)

func TestListRootsWatchCounts(t *testing.T) {
	out := ListRootsOut{Roots: []RootInfo{}, Watches: &WatchCounts{Budget: 128, Descriptors: 115, Directories: 10, Polled: 101, Files: 5}}
	want := "watches: 115 of a budget of 128 file descriptors, for 10 directories and 5 subscribed files; 101 directories polled instead\n"
	if got := out.text(); got != want {
		t.Errorf("text() = %q, want %q", got, want)
	}
}

func TestBudgetReport(t *testing.T) {
	for _, tt := range []struct {
		files, dirs, budget int
		want                string
	}{
		{100, 10, 128, "all watched, about 120 of the 128"},
		{5000, 111, 128, "about 5222 file descriptors to watch everything, over the budget of 128"},
	} {
		if got := budgetReport(tt.files, tt.dirs, tt.budget); !strings.Contains(got, tt.want) {
			t.Errorf("budgetReport(%d, %d, %d) = %q, want it to say %q", tt.files, tt.dirs, tt.budget, got, tt.want)
		}
	}
}
