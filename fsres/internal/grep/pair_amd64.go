//go:build amd64 && !purego

package grep

import "golang.org/x/sys/cpu"

// useAVX2 picks the 32-byte pair filter; every amd64 CPU has SSE2's
// 16-byte one.
var useAVX2 = cpu.X86.HasAVX2

// pairWidth is the bytes of text one step of pairMask tests.
var pairWidth = pairWidthFor(useAVX2)

func pairWidthFor(avx2 bool) int {
	if avx2 {
		return 32
	}
	return 16
}

// pairMask tests the starts data[0:n] a block of pairWidth at a time for
// the pair of lanes (pair_amd64.s) and returns the first block with a
// candidate and its candidates, a bit per start; or the offset where it
// stopped, with no bit, when fewer than pairWidth starts are left. Every
// load stays below data[n-1+o1+1]: the caller keeps n-1+o1 inside data.
func pairMask(data *byte, n, o0, o1 int, lanes *pairLanes) (int, uint32) {
	if useAVX2 {
		return pairMaskAVX2(data, n, o0, o1, lanes)
	}
	return pairMaskSSE2(data, n, o0, o1, lanes)
}

//go:noescape
func pairMaskAVX2(data *byte, n, o0, o1 int, lanes *pairLanes) (at int, mask uint32)

//go:noescape
func pairMaskSSE2(data *byte, n, o0, o1 int, lanes *pairLanes) (at int, mask uint32)
