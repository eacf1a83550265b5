//go:build !unix

package gen

import (
	"io/fs"

	"github.com/go-git/go-git/v5/plumbing/format/index"
)

func statInfo(*index.Entry, fs.FileInfo) {}
