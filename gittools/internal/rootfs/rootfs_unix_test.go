//go:build unix

package rootfs

import (
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestReadOpenOfAFIFODoesNotBlock: go-git checks that a file is regular before it opens it (repo's boundedFS),
// but a FIFO swapped in between must not hold the open, and with it the repository's lock.
func TestReadOpenOfAFIFODoesNotBlock(t *testing.T) {
	fsys, in, _ := newFS(t)
	if err := syscall.Mkfifo(filepath.Join(in, "HEAD"), 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	done := make(chan error, 1)
	go func() {
		f, err := fsys.Open("HEAD")
		if err == nil {
			f.Close()
		}
		done <- err
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("opening a FIFO for reading blocked")
	}
}
