//go:build !unix

package packread

import "os"

// mapFile maps nothing here: the pack is read with pread.
func mapFile(*os.File, int64) []byte { return nil }

func unmap([]byte) {}
