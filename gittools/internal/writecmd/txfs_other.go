//go:build !linux

package writecmd

import "os"

// newTxFS returns the txFS of the worktree wt: wt itself on this platform.
func newTxFS(wt *os.Root) txFS { return rootFS{wt} }
