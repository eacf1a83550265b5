//go:build unix

package gitwrite

import "syscall"

// openNoFollow are the open flags for reading worktree files: never follow a final symlink, never block on a FIFO.
const openNoFollow = syscall.O_NOFOLLOW | syscall.O_NONBLOCK
