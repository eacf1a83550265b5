//go:build !linux

package stdio

import "io"

// widenPipe does nothing where pipes cannot be resized (Linux's F_SETPIPE_SZ).
func widenPipe(io.Writer) {}
