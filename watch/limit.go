package watch

import (
	"errors"
	"syscall"
)

// errLimit is what Add fails with once Options.MaxWatches directories are watched, as inotify_add_watch
// does at max_user_watches.
var errLimit error = syscall.ENOSPC

// isLimit reports whether err means the system can't add more watches: ENOSPC from inotify, EMFILE where a
// watch costs a file descriptor (kqueue).
func isLimit(err error) bool {
	return errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EMFILE)
}
