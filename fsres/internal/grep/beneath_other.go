//go:build unix && !linux

package grep

// openBeneath is openat2(2) where there is one (beneath_linux.go); here
// every file is opened the portable way.
func openBeneath(int, string) (int, error) { return -1, errNoOpenat2 }
