//go:build !unix

package stdio

import "os"

// polled does nothing where the runtime's poller does not take pipes.
func polled(any) (f *os.File, restore func(), ok bool) { return nil, nil, false }
