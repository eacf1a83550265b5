package packread

import (
	"bytes"
	"runtime/debug"
	"sort"
)

// Count returns the number of objects the packs hold (an object in two packs counts twice, as git's
// estimate of a repository's size counts it).
func (r *Reader) Count() (n int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var err error
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer faulted(&err)
	r.load()
	for _, p := range r.packs {
		n += p.idx.n
	}
	return n
}

// SharedPrefix returns the most leading hex digits name has in common with any other object of the packs
// (an object equal to name does not count): an abbreviation of name is unique among them when it is
// longer. It costs one binary search per pack.
func (r *Reader) SharedPrefix(name [20]byte) (most int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var err error
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer faulted(&err)
	r.load()
	for _, p := range r.packs {
		x := p.idx
		i := sort.Search(x.n, func(i int) bool { return bytes.Compare(x.name(i), name[:]) >= 0 })
		for _, j := range []int{i - 1, i, i + 1} {
			if j >= 0 && j < x.n && !bytes.HasPrefix(x.name(j), name[:]) {
				most = max(most, SharedHex(x.name(j), name[:]))
			}
		}
	}
	return most
}

// SharedHex returns how many leading hex digits a and b have in common.
func SharedHex(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			if a[i]>>4 == b[i]>>4 {
				return 2*i + 1
			}
			return 2 * i
		}
	}
	return 2 * min(len(a), len(b))
}
