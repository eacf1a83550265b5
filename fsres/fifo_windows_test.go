package fsres

import "errors"

// mkfifo reports that Windows has no named pipes in the file system.
func mkfifo(string) error { return errors.ErrUnsupported }
