//go:build unix

package fsres

import "syscall"

// openDirFlags make opening a directory fail fast on anything else.
const openDirFlags = syscall.O_DIRECTORY | syscall.O_NONBLOCK
