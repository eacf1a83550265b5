package gitfmt

import (
	"bytes"
	"strconv"

	"github.com/go-git/go-git/v5/plumbing"
)

// The cache-tree (TREE extension) records, for directories whose index entries are unchanged since the last
// tree write, the tree hash they would produce: status compares it with HEAD's trees to skip whole subtrees.

// CacheTreeNode is one node of the TREE extension: a directory ("" is the root), how many index entries its
// tree covers (-1: invalidated since the tree was written, Hash unset), how many subtree nodes follow it, and
// its tree's hash.
type CacheTreeNode struct {
	Path     string
	Count    int
	Subtrees int
	Hash     plumbing.Hash
}

// parseCacheTree reads the TREE extension's pre-order list into idx.Tree and records every valid node by full
// path in idx.CacheTree. A node name git would never write refuses the index (see cacheTreePath); an
// unreadable tail is ignored, as the cache-tree is only a shortcut, but then idx.Tree is left nil so that
// nobody writes the torn list back.
func parseCacheTree(idx *Index, b []byte, hashLen int) error {
	var stack []frame
	var nodes []CacheTreeNode
	for first := true; len(b) > 0; first = false {
		nul := bytes.IndexByte(b, 0)
		nl := bytes.IndexByte(b, '\n')
		if nul < 0 || nl < nul {
			return nil
		}
		name := string(b[:nul])
		count, subtrees, ok := treeCounts(b[nul+1 : nl])
		if !ok {
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
		node := CacheTreeNode{Path: full, Count: count, Subtrees: subtrees}
		if count >= 0 {
			if len(b) < hashLen {
				return nil
			}
			node.Hash = plumbing.Hash(b[:sha1Len])
			idx.CacheTree[full] = node.Hash
			b = b[hashLen:]
		}
		nodes = append(nodes, node)
		stack = append(stack, frame{prefix: full, left: subtrees})
	}
	for _, f := range stack {
		if f.left != 0 {
			return nil // fewer subtrees than announced: not a list to write back
		}
	}
	idx.Tree = nodes
	return nil
}

// treeCounts parses a node's "<entry count> <subtree count>": decimal, the entry count -1 for an invalid node.
func treeCounts(b []byte) (count, subtrees int, ok bool) {
	c, s, found := bytes.Cut(b, []byte{' '})
	if !found {
		return 0, 0, false
	}
	count, err1 := strconv.Atoi(string(c))
	subtrees, err2 := strconv.Atoi(string(s))
	if err1 != nil || err2 != nil || count < -1 || subtrees < 0 || subtrees > maxEWAHBits {
		return 0, 0, false
	}
	return count, subtrees, true
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
