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
	if got := debug.SetGCPercent(Percent); got != Percent {
		t.Errorf("during two bursts the target is %d, want %d", got, Percent)
	}
	a()
	a() // a second call changes nothing
	if got := debug.SetGCPercent(Percent); got != Percent {
		t.Errorf("with one burst left the target is %d, want %d", got, Percent)
	}
	b()
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("after the bursts the target is %d, want the 100 from before", got)
	}
	for _, before := range []int{-1, 500} {
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
