//go:build !unix

package gitwrite

import "time"

// cpuTime is not measured here: benchmarks report wall time alone.
func cpuTime() time.Duration { return 0 }
