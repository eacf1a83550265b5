//go:build unix

package stdio

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// A pipe is read and written through the poller (its descriptor
// non-blocking) until restore puts it back in blocking mode; a regular
// file, and a reader that is not a file, are left as they are.
func TestPolled(t *testing.T) {
	// Blocking descriptors, as a client hands grove its stdin and stdout
	// (os.Pipe's are non-blocking already).
	var fds [2]int
	if err := unix.Pipe(fds[:]); err != nil {
		t.Fatal(err)
	}
	r, w := os.NewFile(uintptr(fds[0]), "stdin"), os.NewFile(uintptr(fds[1]), "stdout")
	for _, f := range []*os.File{r, w} {
		if nonblocking(t, f) {
			t.Fatalf("%s: non-blocking from the start", f.Name())
		}
	}
	defer r.Close()
	defer w.Close()
	pr, restoreR, ok := polled(r)
	if !ok {
		t.Fatal("a pipe's read end is not polled")
	}
	pw, restoreW, ok := polled(w)
	if !ok {
		t.Fatal("a pipe's write end is not polled")
	}
	for _, f := range []*os.File{r, w} {
		if !nonblocking(t, f) {
			t.Errorf("%s: blocking while polled", f.Name())
		}
	}
	wrote := make(chan error)
	go func() {
		_, err := pw.Write([]byte("line one\n"))
		restoreW()
		wrote <- err
	}()
	got, err := io.ReadAll(io.LimitReader(pr, 9))
	if err != nil || string(got) != "line one\n" {
		t.Fatalf("read %q, %v", got, err)
	}
	if err := <-wrote; err != nil {
		t.Fatal(err)
	}
	restoreR()
	for _, f := range []*os.File{r, w} {
		if nonblocking(t, f) {
			t.Errorf("%s: still non-blocking after restore", f.Name())
		}
	}
	reg, err := os.Create(filepath.Join(t.TempDir(), "f"))
	if err != nil {
		t.Fatal(err)
	}
	defer reg.Close()
	if _, _, ok := polled(reg); ok {
		t.Error("a regular file is polled")
	}
	if _, _, ok := polled(strings.NewReader("x")); ok {
		t.Error("a strings.Reader is polled")
	}
}

func nonblocking(t *testing.T, f *os.File) bool {
	t.Helper()
	raw, err := f.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var flags int
	raw.Control(func(fd uintptr) { flags, err = unix.FcntlInt(fd, unix.F_GETFL, 0) })
	if err != nil {
		t.Fatal(err)
	}
	return flags&unix.O_NONBLOCK != 0
}

// A descriptor that was non-blocking already stays so after restore.
func TestPolledKeepsNonblocking(t *testing.T) {
	r, w, err := os.Pipe() // non-blocking, as Go makes its pipes
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	_, restore, ok := polled(r)
	if !ok {
		t.Fatal("not polled")
	}
	restore()
	if !nonblocking(t, r) {
		t.Error("restore made a non-blocking descriptor blocking")
	}
}
