package scan

import (
	"runtime/debug"
	"sync"
)

// scanGCPercent is the garbage collector's target (GOGC) while a full scan runs. A first status of a fresh
// process allocates the parsed index and the walk's listings in a burst from a heap of a few megabytes, so
// at the default 100 the collector ran several cycles during it, a tenth of its CPU time on 50,000 files
// (a core's quarter each time, beside the walk's goroutines on a 2-core machine). At 300 the heap may grow
// to four times what survived the last cycle before the next one: tens of megabytes for such a tree.
const scanGCPercent = 300

// gcBurst counts the full scans under way, so that concurrent ones raise the target once and the last to
// end restores what was there before.
var gcBurst struct {
	mu  sync.Mutex // guards the fields below
	n   int
	old int // the target before the first scan; raised only if it was lower (GOGC=off or higher stays)
}

// relaxGC raises the collector's target to scanGCPercent until the returned function is called.
func relaxGC() (restore func()) {
	gcBurst.mu.Lock()
	defer gcBurst.mu.Unlock()
	if gcBurst.n == 0 {
		gcBurst.old = debug.SetGCPercent(scanGCPercent)
		if gcBurst.old < 0 || gcBurst.old >= scanGCPercent {
			debug.SetGCPercent(gcBurst.old)
		}
	}
	gcBurst.n++
	return sync.OnceFunc(func() {
		gcBurst.mu.Lock()
		defer gcBurst.mu.Unlock()
		if gcBurst.n--; gcBurst.n == 0 {
			debug.SetGCPercent(gcBurst.old)
		}
	})
}
