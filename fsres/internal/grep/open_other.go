//go:build !unix

package grep

// openNonblock is zero where FIFOs cannot block an open.
const openNonblock = 0

// closeParent has nothing to close: texts are kept on Linux only
// (contents_linux.go).
func (o *dirOpener) closeParent() {}
