//go:build !unix

package grep

import "errors"

// mkfifo reports that the system has no named pipes in the file system.
func mkfifo(string) error { return errors.ErrUnsupported }
