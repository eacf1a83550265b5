//go:build unix

package grep

import "syscall"

// openNonblock keeps open(2) of a FIFO swapped in after the walk from
// waiting for a writer.
const openNonblock = syscall.O_NONBLOCK
