//go:build !unix

package watch

// descriptorLimit is 0 (unknown): Windows has no RLIMIT_NOFILE, and its watches cost no descriptors here.
func descriptorLimit() int { return 0 }
