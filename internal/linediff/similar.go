package linediff

import "hash/maphash"

// Profile counts a text's content by line for [Similarity]: the bytes of each distinct line. Lines are
// compared without their ending ("\n" or "\r\n"), so a file whose line endings changed still looks like
// itself, and cut into pieces of at most maxPiece bytes, so that an edit to a very long line (minified
// code, data) costs only the piece it falls in.
type Profile struct {
	size   int
	pieces map[uint64]int // piece hash -> bytes of the pieces with that hash
}

const maxPiece = 64

var pieceSeed = maphash.MakeSeed()

// NewProfile profiles data.
func NewProfile(data []byte) Profile {
	p := Profile{size: len(data), pieces: make(map[uint64]int)}
	for len(data) > 0 {
		n := min(len(data), maxPiece)
		for i, c := range data[:n] {
			if c == '\n' {
				n = i + 1
				break
			}
		}
		key := data[:n]
		if k := len(key); k > 0 && key[k-1] == '\n' {
			key = key[:k-1]
			if k > 1 && key[k-2] == '\r' {
				key = key[:k-2]
			}
		}
		p.pieces[maphash.Bytes(pieceSeed, key)] += n
		data = data[n:]
	}
	return p
}

// Size returns the profiled text's length in bytes.
func (p Profile) Size() int { return p.size }

// Similarity returns how much of two texts is the same content: the bytes of the lines both have (each
// line counted as often as the text that has it fewer times), over the larger text's size. That is git's
// documented similarity index ("the percentage of unchanged content") read as a fraction from 0 to 1. Two
// empty texts are the same (1).
func Similarity(a, b Profile) float64 {
	if a.size == 0 && b.size == 0 {
		return 1
	}
	small, large := a.pieces, b.pieces
	if len(small) > len(large) {
		small, large = large, small
	}
	shared := 0
	for h, n := range small {
		shared += min(n, large[h])
	}
	return float64(shared) / float64(max(a.size, b.size))
}
