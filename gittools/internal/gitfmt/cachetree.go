package gitfmt

import (
	"bytes"
	"fmt"

	"github.com/go-git/go-git/v5/plumbing"
)

// The cache-tree (TREE extension) records, for directories whose index entries are unchanged since the last
// tree write, the tree hash they would produce: status compares it with HEAD's trees to skip whole subtrees.

// parseCacheTree reads the TREE extension's pre-order list and records every valid node by full path. A node
// name git would never write refuses the index (see cacheTreePath); an unreadable tail is ignored, as the
// cache-tree is only a shortcut.
func parseCacheTree(out map[string]plumbing.Hash, b []byte, hashLen int) error {
	var stack []frame
	for first := true; len(b) > 0; first = false {
		nul := bytes.IndexByte(b, 0)
		nl := bytes.IndexByte(b, '\n')
		if nul < 0 || nl < nul {
			return nil
		}
		name := string(b[:nul])
		var count, subtrees int
		if _, err := fmt.Sscanf(string(b[nul+1:nl]), "%d %d", &count, &subtrees); err != nil {
			return nil
		}
		b = b[nl+1:]
		for len(stack) > 0 && stack[len(stack)-1].left == 0 {
			stack = stack[:len(stack)-1]
		}
		full, err := cacheTreePath(stack, name, first)
		if err != nil {
			return err
		}
		if count >= 0 {
			if len(b) < hashLen {
				return nil
			}
			out[full] = plumbing.Hash(b[:sha1Len])
			b = b[hashLen:]
		}
		stack = append(stack, frame{prefix: full, left: subtrees})
	}
	return nil
}

// frame is a cache-tree node whose subtrees are still being read.
type frame struct {
	prefix string
	left   int
}

// cacheTreePath is the full path of a node named name below the open nodes stack, counting it against its
// parent. The root (first) node has an empty name; every other name must be a path component git would write.
func cacheTreePath(stack []frame, name string, root bool) (string, error) {
	if root {
		if name != "" {
			return "", BadEntry("", name)
		}
		return "", nil
	}
	if len(stack) == 0 || !ValidPathComponent(name) {
		return "", BadEntry("", name)
	}
	top := &stack[len(stack)-1]
	top.left--
	if top.prefix == "" {
		return name, nil
	}
	return top.prefix + "/" + name, nil
}
