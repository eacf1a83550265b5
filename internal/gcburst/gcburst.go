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
	"runtime/metrics"
	"sync"
)

// Percent is the least collector's target (GOGC) during a burst: the heap may
// grow to four times what survived the last cycle before the next one.
const Percent = 300

// Floor is the least heap a burst may grow to before a collection: a target
// above Percent when little survived (a fresh process's 4 MB heap, a small
// root's state), tens of megabytes at most beyond what Percent allows. A
// 50,000-file worktree's first status allocates about 20 MB; at 300 the
// first cycle came at 12 MB, in the middle of the call.
const Floor = 64 << 20

// maxPercent bounds the target Floor asks for.
const maxPercent = 1600

// percent returns the target for a burst starting now: Percent, or more to
// reach Floor from the heap that survived the last cycle.
func percent() int {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	var live int64
	if s[0].Value.Kind() == metrics.KindUint64 {
		live = int64(s[0].Value.Uint64())
	}
	return percentFor(live)
}

// percentFor returns the target for a burst after a cycle that left live
// bytes.
func percentFor(live int64) int {
	live = max(live, 4<<20) // the runtime's least heap, before the first cycle
	p := int((Floor - live) * 100 / live)
	return min(max(p, Percent), maxPercent)
}

// bursts counts the bursts under way, so that concurrent ones raise the
// target once and the last to end restores what was there before.
var bursts struct {
	mu  sync.Mutex // guards the fields below
	n   int
	old int // the target before the first burst; raised only if it was lower (GOGC=off or higher stays)
}

// Relax raises the collector's target to Percent, or more up to Floor, until the returned function
// is called (once; later calls do nothing).
func Relax() (restore func()) {
	bursts.mu.Lock()
	defer bursts.mu.Unlock()
	if bursts.n == 0 {
		p := percent()
		bursts.old = debug.SetGCPercent(p)
		if bursts.old < 0 || bursts.old >= p {
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
