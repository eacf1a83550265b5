//go:build unix

package gitfmt

import "syscall"

// OpenNoBlock are the open flags for reading repository files, which may be symlinks (inside the git dir, as
// os.Root keeps them) but must never block: a crafted index, config or object could be a FIFO.
const OpenNoBlock = syscall.O_NONBLOCK
