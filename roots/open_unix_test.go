//go:build unix

package roots_test

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/grove-mcp/grove/roots"
)

// openTimeout bounds how long OpenFile may take on a FIFO: a blocking open
// would wait for a writer forever.
const openTimeout = 5 * time.Second

func TestOpenFileFIFO(t *testing.T) {
	tmp := realTempDir(t)
	fifo := filepath.Join(tmp, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	symlink(t, "fifo", filepath.Join(tmp, "fifo-link"))
	sc := newScope(t, tmp)
	for _, input := range []string{"fifo", "fifo-link"} {
		t.Run(input, func(t *testing.T) {
			loc, err := sc.Resolve(input)
			if err != nil {
				t.Fatal(err)
			}
			if err := openWithTimeout(t, loc, fifo); !errors.Is(err, roots.ErrNotRegular) {
				t.Errorf("OpenFile(%s) = %v, want ErrNotRegular", input, err)
			}
		})
	}
}

// openWithTimeout runs loc.OpenFile and fails the test if it blocks; then it
// unblocks it by opening the FIFO for writing.
func openWithTimeout(t *testing.T, loc roots.Loc, fifo string) error {
	t.Helper()
	done := make(chan error, 1)
	go func() {
		f, _, err := loc.OpenFile()
		if f != nil {
			f.Close()
		}
		done <- err
	}()
	select {
	case err := <-done:
		return err
	case <-time.After(openTimeout):
		t.Errorf("OpenFile blocked for %v on a FIFO", openTimeout)
		if w, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
			w.Close()
		}
		return <-done
	}
}

func TestOpenFileSocket(t *testing.T) {
	tmp := realTempDir(t)
	sock := filepath.Join(tmp, "s")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Skipf("unix socket: %v", err)
	}
	defer l.Close()
	loc, err := newScope(t, tmp).Resolve("s")
	if err != nil {
		t.Fatal(err)
	}
	f, _, err := loc.OpenFile()
	if err == nil {
		f.Close()
	}
	if !errors.Is(err, roots.ErrNotRegular) {
		t.Errorf("OpenFile(socket) = %v, want ErrNotRegular", err)
	}
}

func TestOpenFileDevice(t *testing.T) {
	if _, err := os.Stat("/dev/null"); err != nil {
		t.Skip("no /dev/null")
	}
	loc, err := newScope(t, "/dev").Resolve("/dev/null")
	if err != nil {
		t.Fatal(err)
	}
	f, _, err := loc.OpenFile()
	if err == nil {
		f.Close()
	}
	if !errors.Is(err, roots.ErrNotRegular) {
		t.Errorf("OpenFile(/dev/null) = %v, want ErrNotRegular", err)
	}
}
