//go:build !linux

package gittools

import "io/fs"

// fastStat has no fast path outside Linux: every entry goes through the statter.
type fastStat struct{}

func (rp *repo) newFastStat() *fastStat { return nil }

func (f *fastStat) clean(*indexEntry, *gitIndex) bool { return false }

func (f *fastStat) close() {}

func walkedClean(fs.DirEntry, *indexEntry, *gitIndex) bool { return false }
