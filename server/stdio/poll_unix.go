//go:build unix

package stdio

import (
	"os"

	"golang.org/x/sys/unix"
)

// polled returns a copy of v's descriptor, when v is a pipe or a socket, that
// the runtime reads and writes through its poller, and a function that puts
// the descriptor back in the mode it had and closes the copy.
//
// A read of stdin blocked in the kernel keeps its processor (P) with it until
// the runtime's monitor (sysmon) takes it back, one of its ticks later: up to
// 10 ms when the process has been idle, the state grove is in when a request
// arrives. The reader reads the request, hands it on and blocks again at once,
// so on 2 cores the goroutines the call starts (grep's workers, the status's
// walk) had one processor between them for 0–10 ms (traced: a worker runnable
// for 1.9 ms with the other core idle). A goroutine parked in the poller holds
// no processor.
//
// Non-blocking mode belongs to the open file, which the process that started
// grove may share: it is set only on pipes and sockets (a terminal stays as it
// is) and put back when grove is done with it.
func polled(v any) (f *os.File, restore func(), ok bool) {
	src, ok := v.(*os.File)
	if !ok {
		return nil, nil, false
	}
	raw, err := src.SyscallConn()
	if err != nil {
		return nil, nil, false
	}
	fd, wasBlocking := -1, false
	var st unix.Stat_t
	_ = raw.Control(func(s uintptr) {
		if unix.Fstat(int(s), &st) != nil {
			return
		}
		switch st.Mode & unix.S_IFMT {
		case unix.S_IFIFO, unix.S_IFSOCK:
		default:
			return
		}
		flags, err := unix.FcntlInt(s, unix.F_GETFL, 0)
		if err != nil {
			return
		}
		dup, err := unix.FcntlInt(s, unix.F_DUPFD_CLOEXEC, 0)
		if err != nil {
			return
		}
		wasBlocking = flags&unix.O_NONBLOCK == 0
		if err := unix.SetNonblock(dup, true); err != nil {
			unix.Close(dup)
			return
		}
		fd = dup
	})
	if fd < 0 {
		return nil, nil, false
	}
	f = os.NewFile(uintptr(fd), src.Name()) // non-blocking: NewFile registers it with the poller
	return f, func() {
		if raw, err := f.SyscallConn(); err == nil && wasBlocking {
			_ = raw.Control(func(s uintptr) { _ = unix.SetNonblock(int(s), false) })
		}
		f.Close()
	}, true
}
