//go:build !unix

package dirent

// OpenDirFlags: Windows has no FIFOs to block on.
const OpenDirFlags = 0
