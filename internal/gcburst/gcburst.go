// Package gcburst raises the garbage collector's target while a burst of
// allocation runs whose garbage is short-lived, and puts it back when the last
// burst ends.
//
//	defer gcburst.Relax()()
//
// A fresh process starts with a 4 MB heap target: registering the tools, then
// parsing a repository's index and listing its worktree, allocate several
// times that in a few tens of milliseconds, and at the default target (100)
// the collector ran cycles throughout, each on a quarter of the cores (half
// of one core of a 2-core machine) that the first request would have used.
package gcburst

import (
	"runtime/debug"
	"sync"
)

// Percent is the collector's target (GOGC) during a burst: the heap may grow
// to four times what survived the last cycle (at least 12 MB) before the next
// one, tens of megabytes at most for a 50,000-file worktree's first status.
const Percent = 300

// bursts counts the bursts under way, so that concurrent ones raise the
// target once and the last to end restores what was there before.
var bursts struct {
	mu  sync.Mutex // guards the fields below
	n   int
	old int // the target before the first burst; raised only if it was lower (GOGC=off or higher stays)
}

// Relax raises the collector's target to Percent until the returned function
// is called (once; later calls do nothing).
func Relax() (restore func()) {
	bursts.mu.Lock()
	defer bursts.mu.Unlock()
	if bursts.n == 0 {
		bursts.old = debug.SetGCPercent(Percent)
		if bursts.old < 0 || bursts.old >= Percent {
			debug.SetGCPercent(bursts.old)
		}
	}
	bursts.n++
	return sync.OnceFunc(func() {
		bursts.mu.Lock()
		defer bursts.mu.Unlock()
		if bursts.n--; bursts.n == 0 {
			debug.SetGCPercent(bursts.old)
		}
	})
}
