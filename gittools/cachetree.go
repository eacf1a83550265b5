package gittools

import (
	"bytes"
	"fmt"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// The cache-tree (TREE extension) records, for directories whose index entries are unchanged since the last
// tree write, the tree hash they would produce: status compares it with HEAD's trees to skip whole subtrees.

// parseCacheTree reads the TREE extension's pre-order list and records every valid node by full path.
func parseCacheTree(out map[string]plumbing.Hash, _ string, b []byte) {
	type frame struct {
		prefix string
		left   int
	}
	var stack []frame
	for len(b) > 0 {
		nul := bytes.IndexByte(b, 0)
		nl := bytes.IndexByte(b, '\n')
		if nul < 0 || nl < nul {
			return
		}
		name := string(b[:nul])
		var count, subtrees int
		if _, err := fmt.Sscanf(string(b[nul+1:nl]), "%d %d", &count, &subtrees); err != nil {
			return
		}
		b = b[nl+1:]
		for len(stack) > 0 && stack[len(stack)-1].left == 0 {
			stack = stack[:len(stack)-1]
		}
		full := name
		if len(stack) > 0 {
			top := &stack[len(stack)-1]
			top.left--
			if top.prefix != "" {
				full = top.prefix + "/" + name
			}
		}
		if count >= 0 {
			if len(b) < 20 {
				return
			}
			out[full] = plumbing.Hash(b[:20])
			b = b[20:]
		}
		stack = append(stack, frame{prefix: full, left: subtrees})
	}
}

func convertCacheTree(out map[string]plumbing.Hash, es []index.TreeEntry) {
	type frame struct {
		prefix string
		left   int
	}
	var stack []frame
	for _, e := range es {
		for len(stack) > 0 && stack[len(stack)-1].left == 0 {
			stack = stack[:len(stack)-1]
		}
		full := e.Path
		if len(stack) > 0 {
			top := &stack[len(stack)-1]
			top.left--
			if top.prefix != "" {
				full = top.prefix + "/" + e.Path
			}
		}
		if e.Entries >= 0 {
			out[full] = e.Hash
		}
		stack = append(stack, frame{prefix: full, left: e.Trees})
	}
}
