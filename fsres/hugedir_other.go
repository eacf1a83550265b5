//go:build !linux

package fsres

import (
	"errors"
	"io/fs"
	"os"
	"time"
)

// streaming says whether this build lists huge directories in the file
// system's order. Without getdents64's d_off to resume by, every directory
// is listed sorted.
const streaming = false

type dirents struct {
	ents []dent
	eof  bool
}

func openDirents(*os.Root, int64, int) (*dirents, error) {
	return nil, errors.New("directories are not streamed on this system")
}

func (d *dirents) close()     {}
func (d *dirents) more() bool { return false }

func moreThan(*os.Root, int) bool { return false }

func (d *dirents) lstat(string) (fs.FileMode, int64, time.Time, error) {
	return 0, 0, time.Time{}, errors.New("directories are not streamed on this system")
}
