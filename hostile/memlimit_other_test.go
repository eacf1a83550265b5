//go:build !linux

package hostile

// limitMemory does nothing where prlimit(2) is not there.
func (s *session) limitMemory() {}
