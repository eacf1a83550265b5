//go:build unix

package main

import (
	"os"
	"syscall"
)

// rusageFaults returns the minor page faults of the ended process ps.
func rusageFaults(ps *os.ProcessState) int64 {
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		return ru.Minflt
	}
	return 0
}
