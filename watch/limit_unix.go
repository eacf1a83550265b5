//go:build unix

package watch

import "syscall"

// descriptorLimit is the soft RLIMIT_NOFILE (the Go runtime raises it to the hard limit at start-up); 0 when
// it can't be read or is unlimited.
func descriptorLimit() int {
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &rl); err != nil || rl.Cur > 1<<30 {
		return 0
	}
	return int(rl.Cur)
}
