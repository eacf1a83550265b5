//go:build !unix

package grep

// cpuTime is not measured here; benchmarks report 0 cpu-ns/op.
func cpuTime() int64 { return 0 }
