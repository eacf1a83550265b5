//go:build !amd64 || purego

package grep

// pairWidth is zero where there is no vector pair filter: the pair scan
// is the word-wide one alone.
const pairWidth = 0

// pairMask tests no block (pairWidth is zero) and so finds no candidate.
func pairMask(_ *byte, _, _, _ int, _ *pairLanes) (int, uint32) { return 0, 0 }
