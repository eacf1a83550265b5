//go:build !unix

package grep

import "os"

// openNonblock is zero where FIFOs cannot block an open.
const openNonblock = 0

// closeParent has nothing to close: texts are kept on Linux only
// (contents_linux.go).
func (o *dirOpener) closeParent() {}

// searchedBefore is false: nothing is kept here.
func searchedBefore(*os.Root) bool { return false }

// KeepTexts does nothing: no text is kept here.
func KeepTexts(*os.Root, int64) {}

// KeptBytes is 0: no text is kept here.
func KeptBytes(*os.Root) int64 { return 0 }

// keptEpoch is 0: no text is kept here.
func keptEpoch() uint64 { return 0 }

// Forget does nothing: no text is kept here.
func Forget(*os.Root, []string, bool) {}

// Synced returns DirOpener's openers: no text is kept here.
func Synced(fsys *os.Root, base string) func() Opener { return DirOpener(fsys, base) }

// keptGen is 0: no text is kept here.
func keptGen(*os.Root) uint64 { return 0 }
