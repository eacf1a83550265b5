//go:build !linux

package scan

import (
	"io/fs"

	"github.com/grove-mcp/grove/gittools/internal/gitfmt"
	"github.com/grove-mcp/grove/gittools/internal/repo"
)

// fastStat has no fast path outside Linux: every entry goes through the statter.
type fastStat struct{}

// fastStatWorks reports whether fastStat can prove entries clean here (see Preload).
const fastStatWorks = false

func newFastStat(*repo.Repo) *fastStat { return nil }

func (f *fastStat) clean(*gitfmt.IndexEntry, *gitfmt.Index) bool { return false }

func (f *fastStat) close() {}

func walkedClean(fs.DirEntry, *gitfmt.IndexEntry, *gitfmt.Index) bool { return false }
