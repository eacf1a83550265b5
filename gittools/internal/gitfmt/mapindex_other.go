//go:build !linux

package gitfmt

import "os"

// mapIndex returns nil: the index is read (see mapindex_linux.go).
func mapIndex(*os.File, int64) []byte { return nil }

func unmapIndex([]byte) {}
