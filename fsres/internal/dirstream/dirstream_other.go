//go:build !linux

package dirstream

import (
	"errors"
	"io/fs"
	"os"
	"time"
)

// Supported says whether this build reads directories as a stream, in the
// file system's order. Without getdents64's d_off to resume by, fsres lists
// every directory sorted.
const Supported = false

// A Dir is never opened on this system.
type Dir struct {
	Entries []Entry
	eof     bool
}

// Open fails: see [Supported].
func Open(*os.Root, int64, int) (*Dir, error) {
	return nil, errors.New("directories are not streamed on this system")
}

// Close does nothing.
func (d *Dir) Close() {}

// More reports the end.
func (d *Dir) More() bool { return false }

// MoreThan reports false: every directory is listed sorted.
func MoreThan(*os.Root, int) bool { return false }

// Lstat fails: see [Supported].
func (d *Dir) Lstat(string) (fs.FileMode, int64, time.Time, error) {
	return 0, 0, time.Time{}, errors.New("directories are not streamed on this system")
}
