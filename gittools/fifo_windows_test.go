package gittools

import "errors"

// mkfifo reports that Windows has no named pipes in the file system; the tests that need one skip.
func mkfifo(string) error { return errors.ErrUnsupported }
