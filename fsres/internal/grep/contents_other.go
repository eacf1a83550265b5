//go:build unix && !linux

package grep

import (
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// Texts are kept only where openat2 lets a kept one be checked beneath the
// searched directory (contents_linux.go).

func (o *dirOpener) kept(_ string, _ int64, buf []byte) ([]byte, bool, error) {
	return buf, false, nil
}

func (o *dirOpener) keep(string, *unix.Stat_t, []byte, time.Time) {}

func (o *dirOpener) closeParent() {}

// searchedBefore is false: nothing is kept here.
func searchedBefore(*os.Root) bool { return false }

// KeepTexts does nothing: no text is kept here.
func KeepTexts(*os.Root, int64) {}

// KeptBytes is 0: no text is kept here.
func KeptBytes(*os.Root) int64 { return 0 }

// Forget does nothing: no text is kept here.
func Forget(*os.Root, []string, bool) {}

// Synced returns DirOpener's openers: no text is kept here.
func Synced(fsys *os.Root, base string) func() Opener { return DirOpener(fsys, base) }

// keptEpoch is 0: no text is kept here.
func keptEpoch() uint64 { return 0 }

// keptGen is 0: no text is kept here.
func keptGen(*os.Root) uint64 { return 0 }
