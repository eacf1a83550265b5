package gcburst

import (
	"runtime/debug"
	"testing"
)

// Bursts raise the collector's target while any of them runs, and the last to
// end puts back what was there; a target already higher, or the collector
// off, is left alone.
func TestRelax(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	a := Relax()
	b := Relax()
	during := debug.SetGCPercent(100)
	debug.SetGCPercent(during)
	if during < Percent || during > maxPercent {
		t.Errorf("during two bursts the target is %d, want %d to %d", during, Percent, maxPercent)
	}
	a()
	a() // a second call changes nothing
	if got := debug.SetGCPercent(during); got != during {
		t.Errorf("with one burst left the target is %d, want %d", got, during)
	}
	b()
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("after the bursts the target is %d, want the 100 from before", got)
	}
	for _, before := range []int{-1, maxPercent + 100} {
		debug.SetGCPercent(before)
		restore := Relax()
		if got := debug.SetGCPercent(before); got != before {
			t.Errorf("a burst with the target at %d set it to %d", before, got)
		}
		restore()
		if got := debug.SetGCPercent(100); got != before {
			t.Errorf("after a burst the target is %d, want %d", got, before)
		}
	}
}

// The target lets a burst reach Floor from a small heap, and is Percent once
// four times the heap passes Floor.
func TestPercentFor(t *testing.T) {
	for _, tt := range []struct {
		live int64
		want int
	}{
		{0, 1500},            // before the first cycle: the runtime's least heap, 4 MB + 1500 % = 64 MB
		{4 << 20, 1500},      // the same
		{8 << 20, 700},       // 8 MB + 700 % = 64 MB
		{16 << 20, Percent},  // 16 MB + 300 % = 64 MB
		{100 << 20, Percent}, // a large heap: Percent
	} {
		if got := percentFor(tt.live); got != tt.want {
			t.Errorf("percentFor(%d MB) = %d, want %d", tt.live>>20, got, tt.want)
		}
	}
}
