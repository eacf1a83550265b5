package gittools

import (
	"bytes"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// treeLookup finds the entry at a path in trees, reading tree objects as raw bytes (go-git's Tree.Decode
// allocates per entry and was 41 % of a path-log walk) and memoising per (tree, rest of path).
type treeLookup struct {
	rp   *repo
	memo map[lookupKey]treeHit
}

type lookupKey struct {
	tree plumbing.Hash
	path string
}

type treeHit struct {
	hash  plumbing.Hash
	mode  filemode.FileMode
	found bool
}

func newTreeLookup(rp *repo) *treeLookup {
	return &treeLookup{rp: rp, memo: map[lookupKey]treeHit{}}
}

// maxLookupMemo bounds the memo; it is simply dropped when full.
const maxLookupMemo = 1 << 16

// find returns the entry at p (slash-separated, no leading slash) in tree t.
func (l *treeLookup) find(t plumbing.Hash, p string) (treeHit, error) {
	k := lookupKey{t, p}
	if h, ok := l.memo[k]; ok {
		return h, nil
	}
	name, rest, deeper := strings.Cut(p, "/")
	e, err := l.entry(t, name)
	if err != nil {
		return treeHit{}, err
	}
	if e.found && deeper {
		if e.mode != filemode.Dir {
			e = treeHit{}
		} else if e, err = l.find(e.hash, rest); err != nil {
			return treeHit{}, err
		}
	}
	if len(l.memo) >= maxLookupMemo {
		clear(l.memo)
	}
	l.memo[k] = e
	return e, nil
}

// entry scans one raw tree object for name.
func (l *treeLookup) entry(t plumbing.Hash, name string) (treeHit, error) {
	o, err := l.rp.git.Storer.EncodedObject(plumbing.TreeObject, t)
	if err != nil {
		return treeHit{}, err
	}
	data, err := readPrefix(o, o.Size()) // at most maxObjectBytes: objectStore refuses bigger trees
	if err != nil {
		return treeHit{}, err
	}
	return scanTree(data, name), nil
}

// scanTree finds name in raw tree data: entries "<octal mode> <name>\0<20-byte hash>".
func scanTree(data []byte, name string) treeHit {
	for len(data) > 0 {
		sp := bytes.IndexByte(data, ' ')
		if sp < 0 {
			break
		}
		nul := bytes.IndexByte(data[sp:], 0)
		if nul < 0 || sp+nul+21 > len(data) {
			break
		}
		nul += sp
		if string(data[sp+1:nul]) == name {
			m, err := filemode.New(string(data[:sp]))
			if err != nil {
				break
			}
			var h plumbing.Hash
			copy(h[:], data[nul+1:nul+21])
			return treeHit{hash: h, mode: m, found: true}
		}
		data = data[nul+21:]
	}
	return treeHit{}
}
