//go:build !linux

package metrics

// processFamilies are the process_* series; grove reads them from /proc on
// Linux only (see process_linux.go).
func processFamilies() []family { return nil }
