//go:build unix

package roots

import "syscall"

// openNonblock keeps open(2) of a FIFO from waiting for a writer.
const openNonblock = syscall.O_NONBLOCK
