//go:build !unix

package grep

// openNonblock is zero where FIFOs cannot block an open.
const openNonblock = 0
