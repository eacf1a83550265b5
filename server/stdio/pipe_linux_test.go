package stdio

import (
	"bytes"
	"os"
	"strconv"
	"testing"

	"golang.org/x/sys/unix"
)

// A stdout that is a pipe is widened to answerPipe when the kernel allows
// it (its limit for unprivileged processes is pipe-max-size); anything else
// is left alone.
func TestWidenPipe(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	before, err := unix.FcntlInt(w.Fd(), unix.F_GETPIPE_SZ, 0)
	if err != nil {
		t.Fatal(err)
	}
	widenPipe(w)
	after, err := unix.FcntlInt(w.Fd(), unix.F_GETPIPE_SZ, 0)
	if err != nil {
		t.Fatal(err)
	}
	limit := answerPipe
	if b, err := os.ReadFile("/proc/sys/fs/pipe-max-size"); err == nil {
		if n, err := strconv.Atoi(string(bytes.TrimSpace(b))); err == nil && n < limit && os.Geteuid() != 0 {
			limit = before // the kernel refuses more than its limit: nothing changes
		}
	}
	if after < limit {
		t.Errorf("pipe capacity %d after widenPipe (was %d), want at least %d", after, before, limit)
	}
	f, err := os.CreateTemp(t.TempDir(), "out")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	widenPipe(f)               // a file: no fcntl, no error
	widenPipe(&bytes.Buffer{}) // not a file at all
}
