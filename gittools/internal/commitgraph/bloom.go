package commitgraph

import (
	"encoding/binary"
	"math/bits"
	"strings"
)

// The seeds of the two murmur3 hashes combined by double hashing into a path's bit positions
// (gitformat-commit-graph(5), BDAT chunk).
const (
	seed0 = 0x293ae76f
	seed1 = 0x7e646e2c
)

// Keys are the paths a query tests against filters: the path and each of its leading directories, because
// git adds a changed file's leading directories to the filter too. Their hashes are computed once per
// filter version.
type Keys struct {
	paths  []string
	hashes [3][][2]uint32 // by version (1, 2): per path, the two murmur3 hashes
}

// NewKeys returns the keys of a slash-separated path relative to the worktree (no leading or trailing slash).
func NewKeys(path string) *Keys {
	k := &Keys{}
	for i := 0; i < len(path); i++ {
		if path[i] == '/' {
			k.paths = append(k.paths, path[:i])
		}
	}
	k.paths = append(k.paths, strings.TrimSuffix(path, "/"))
	return k
}

func (k *Keys) of(version uint32) [][2]uint32 {
	if k.hashes[version] == nil {
		hs := make([][2]uint32, len(k.paths))
		for i, p := range k.paths {
			hs[i] = [2]uint32{murmur3([]byte(p), seed0, version == 1), murmur3([]byte(p), seed1, version == 1)}
		}
		k.hashes[version] = hs
	}
	return k.hashes[version]
}

// MaybeChanged reports whether the commit at pos may have changed the path of keys against its first parent:
// false only when its filter proves that the path, or one of its leading directories, is absent from the
// commit's changed paths. A commit without a filter, or with an empty one (git did not compute it), is a maybe.
func (g *Graph) MaybeChanged(pos uint32, keys *Keys) bool {
	if g == nil || keys == nil || len(keys.paths) == 0 {
		return true
	}
	l, i, ok := g.layerOf(pos)
	if !ok || l.bloom == nil {
		return true
	}
	b := l.bloom
	start := uint32(0)
	if i > 0 {
		start = binary.BigEndian.Uint32(b.index[(i-1)*4:])
	}
	end := binary.BigEndian.Uint32(b.index[i*4:])
	if end <= start || uint64(end) > uint64(len(b.data)) { // checked by parseBloom; kept for safety
		return true
	}
	filter := b.data[start:end]
	nbits := uint64(len(filter)) * 8
	for _, h := range keys.of(b.version) {
		if !contains(filter, nbits, h, b.numHashes) {
			return false
		}
	}
	return true
}

// contains tests the numHashes bits of one key: bit (h0 + j*h1) mod nbits, least significant bit first in
// each byte.
func contains(filter []byte, nbits uint64, h [2]uint32, numHashes uint32) bool {
	for j := range numHashes {
		bit := uint64(h[0]+j*h[1]) % nbits
		if filter[bit/8]&(1<<(bit%8)) == 0 {
			return false
		}
	}
	return true
}

// murmur3 is the 32-bit MurmurHash3 of data with seed, as its published algorithm describes. signed
// reproduces version 1 filters, which git computed reading bytes as signed chars: a byte of 0x80 or more
// was sign-extended to 32 bits before being combined (or-ed within a 4-byte block, xor-ed in the tail).
func murmur3(data []byte, seed uint32, signed bool) uint32 {
	const (
		c1 = 0xcc9e2d51
		c2 = 0x1b873593
	)
	word := func(b byte) uint32 {
		if signed {
			return uint32(int32(int8(b)))
		}
		return uint32(b)
	}
	h := seed
	n := len(data) / 4
	for i := range n {
		b := data[i*4 : i*4+4]
		k := word(b[0]) | word(b[1])<<8 | word(b[2])<<16 | word(b[3])<<24
		k *= c1
		k = bits.RotateLeft32(k, 15)
		k *= c2
		h ^= k
		h = bits.RotateLeft32(h, 13)
		h = h*5 + 0xe6546b64
	}
	tail := data[n*4:]
	var k uint32
	switch len(tail) {
	case 3:
		k ^= word(tail[2]) << 16
		fallthrough
	case 2:
		k ^= word(tail[1]) << 8
		fallthrough
	case 1:
		k ^= word(tail[0])
		k *= c1
		k = bits.RotateLeft32(k, 15)
		k *= c2
		h ^= k
	}
	h ^= uint32(len(data))
	h ^= h >> 16
	h *= 0x85ebca6b
	h ^= h >> 13
	h *= 0xc2b2ae35
	h ^= h >> 16
	return h
}
