//go:build unix

package dirent

import "syscall"

// OpenDirFlags make opening a directory fail fast on anything else.
const OpenDirFlags = syscall.O_DIRECTORY | syscall.O_NONBLOCK
