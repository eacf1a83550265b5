package hostile

import "golang.org/x/sys/unix"

// addressSpaceLimit caps the address space of a grove that meets a huge
// object. It is no part of what the tests assert (peak RSS is, far below
// it): it keeps a broken grove from taking the memory of the machine the
// suite runs on. Past it, grove's allocation fails and the process dies,
// which the test reports.
const addressSpaceLimit = 3 << 30

func (s *session) limitMemory() {
	s.t.Helper()
	lim := unix.Rlimit{Cur: addressSpaceLimit, Max: addressSpaceLimit}
	if err := unix.Prlimit(s.cmd.Process.Pid, unix.RLIMIT_AS, &lim, nil); err != nil {
		s.t.Logf("address space not limited: %v", err)
	}
}
