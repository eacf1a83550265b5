//go:build amd64 && !purego

package grep

import (
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
