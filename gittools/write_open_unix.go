//go:build unix

package gittools

import "syscall"

// openNoFollow are the open flags for reading worktree files: never follow a final symlink, never block on a FIFO.
const openNoFollow = syscall.O_NOFOLLOW | syscall.O_NONBLOCK

// openNoBlock are the open flags for reading repository files, which may be symlinks (inside the git dir, as
// os.Root keeps them) but must never block: a crafted index, config or object could be a FIFO.
const openNoBlock = syscall.O_NONBLOCK
