//go:build !linux

package watch

// systemLimit is 0 (unknown) outside Linux: kqueue spends file descriptors, Windows has no per-user limit.
func systemLimit() int { return 0 }
