//go:build !unix

package fsres

// openDirFlags: Windows has no FIFOs to block on.
const openDirFlags = 0
