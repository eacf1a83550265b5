//go:build unix

package ignore

import (
	"syscall"
	"time"
)

// cpuTime is the process's user plus system CPU time so far. Benchmarks
// report it per operation because wall time on a shared machine measures
// the neighbours as much as the code.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
