//go:build !unix

package roots

// openNonblock is zero where FIFOs cannot block an open.
const openNonblock = 0
