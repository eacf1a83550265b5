package stdio

import (
	"io"
	"os"

	"golang.org/x/sys/unix"
)

// answerPipe is the capacity grove asks for on a stdout that is a pipe.
// Linux's default, 64 KiB, makes a 3 MB answer (grep `return` on git/git)
// 48 rounds of "the pipe is full, wait for the client to read": each costs
// both processes a wake-up. 1 MiB is the largest an unprivileged process may
// ask for by default (/proc/sys/fs/pipe-max-size); the kernel holds pages
// for it only while a message fills it.
const answerPipe = 1 << 20

// widenPipe raises the capacity of out when it is a pipe, as far as the
// kernel allows; a refusal leaves it as it is.
func widenPipe(out io.Writer) {
	f, ok := out.(*os.File)
	if !ok {
		return
	}
	var st unix.Stat_t
	if unix.Fstat(int(f.Fd()), &st) != nil || st.Mode&unix.S_IFMT != unix.S_IFIFO {
		return
	}
	if n, err := unix.FcntlInt(f.Fd(), unix.F_GETPIPE_SZ, 0); err != nil || n >= answerPipe {
		return
	}
	_, _ = unix.FcntlInt(f.Fd(), unix.F_SETPIPE_SZ, answerPipe)
}
