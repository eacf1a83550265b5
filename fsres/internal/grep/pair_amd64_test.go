//go:build amd64 && !purego

package grep

import (
	"math/rand/v2"
	"testing"

	"golang.org/x/sys/cpu"
)

// pairModes is AVX2 where the CPU has it, SSE2, and no vector filter.
func pairModes() []pairMode {
	var modes []pairMode
	if cpu.X86.HasAVX2 {
		modes = append(modes, pairMode{"avx2", func(t testing.TB) { setPairVector(t, true, 32) }})
	}
	return append(modes,
		pairMode{"sse2", func(t testing.TB) { setPairVector(t, false, 16) }},
		pairMode{"words", func(t testing.TB) { setPairVector(t, false, 0) }})
}

func setPairVector(t testing.TB, avx2 bool, width int) {
	oldAVX2, oldWidth := useAVX2, pairWidth
	t.Cleanup(func() { useAVX2, pairWidth = oldAVX2, oldWidth })
	useAVX2, pairWidth = avx2, width
}

// TestPairMask checks the vector filter's answer itself, block and bits,
// against the same test byte by byte: the scan's check of each candidate
// would hide a filter that reports false candidates.
func TestPairMask(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, mode := range pairModes() {
		if mode.name == "words" { // no filter to check
			continue
		}
		t.Run(mode.name, func(t *testing.T) {
			mode.set(t)
			for round := range 300 {
				n := randomNeedle(rng, 2+rng.IntN(8), round%2 == 0)
				data := randomText(rng, n.lit, 1+rng.IntN(400))
				if len(data) < len(n.lit) {
					continue
				}
				starts := len(data) - len(n.lit) + 1
				for from := 0; from < starts; from++ {
					at, mask := pairMask(&data[from], starts-from, n.pair.off[0], n.pair.off[1], &n.pair.lanes)
					wantAt, wantMask := refPairMask(&n.pair, data[from:], starts-from)
					if at != wantAt || mask != wantMask {
						t.Fatalf("%q in %q from %d: block %d mask %#x, want %d %#x", n.lit, data, from, at, mask, wantAt, wantMask)
					}
				}
			}
		})
	}
}

// refPairMask is pairMask a start at a time.
func refPairMask(p *pair, data []byte, n int) (int, uint32) {
	at := 0
	for ; at+pairWidth <= n; at += pairWidth {
		var mask uint32
		for i := range pairWidth {
			s := at + i
			if data[s+p.off[0]]|byte(p.fold[0]) == byte(p.want[0]) && data[s+p.off[1]]|byte(p.fold[1]) == byte(p.want[1]) {
				mask |= 1 << i
			}
		}
		if mask != 0 {
			return at, mask
		}
	}
	return at, 0
}
