package grep

import (
	"math/rand/v2"
	"syscall"
	"testing"
)

// TestPairScanPageEnd runs the pair scan on texts that end where an
// unreadable page begins: a load past the end of the text faults.
func TestPairScanPageEnd(t *testing.T) {
	page := syscall.Getpagesize()
	mem, err := syscall.Mmap(-1, 0, 2*page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Skip("mmap:", err)
	}
	defer syscall.Munmap(mem)
	if err := syscall.Mprotect(mem[page:], syscall.PROT_NONE); err != nil {
		t.Skip("mprotect:", err)
	}
	rng := rand.New(rand.NewPCG(7, 8))
	for _, mode := range pairModes() {
		t.Run(mode.name, func(t *testing.T) {
			mode.set(t)
			for round := range 40 {
				fold := round%2 == 0
				n := randomNeedle(rng, 2+rng.IntN(20), fold)
				text := randomText(rng, n.lit, 200)
				for size := 0; size <= len(text); size++ {
					data := mem[page-size : page]
					copy(data, text)
					for from := range size + 1 {
						if got, want := n.pair.scan(&n, data, from), naiveFindASCII(data, n.lit, fold, from); got != want {
							t.Fatalf("%q (fold %v) from %d in %q: %d, want %d", n.lit, fold, from, data, got, want)
						}
					}
				}
			}
		})
	}
}
