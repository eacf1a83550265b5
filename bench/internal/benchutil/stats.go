package benchutil

import (
	"crypto/sha256"
	"fmt"
	"math"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"
)

// Percentile is the nearest-rank p-th percentile (0 < p <= 100) of ds.
func Percentile(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	i := int(math.Ceil(p/100*float64(len(s)))) - 1
	return s[max(0, min(i, len(s)-1))]
}

// Median is the 50th percentile; for an even count, the mean of the middle two.
func Median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// Spread is min and max of ds, for the "range" column.
func Spread(ds []time.Duration) (lo, hi time.Duration) {
	if len(ds) == 0 {
		return 0, 0
	}
	return slices.Min(ds), slices.Max(ds)
}

// Ms formats a duration in milliseconds with a precision that suits its size.
func Ms(d time.Duration) string {
	ms := float64(d) / float64(time.Millisecond)
	switch {
	case ms >= 100:
		return fmt.Sprintf("%.0f ms", ms)
	case ms >= 10:
		return fmt.Sprintf("%.1f ms", ms)
	default:
		return fmt.Sprintf("%.2f ms", ms)
	}
}

// MB formats bytes in MiB.
func MB(b int64) string { return fmt.Sprintf("%.1f MB", float64(b)/(1<<20)) }

// Verdict is "met" or "MISSED" for a value that must stay at or under target.
func Verdict(value, target float64) string {
	if value <= target {
		return "met"
	}
	return "MISSED"
}

// LoadAvg is the first field of /proc/loadavg (1-minute load), or "?".
func LoadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return "?"
	}
	return f[0]
}

// Version is what `bin --version` prints plus the start of the binary's
// SHA-256, since a development build prints only "devel".
func Version(bin string) string {
	out, err := exec.Command(bin, "--version").Output()
	v := strings.TrimSpace(string(out))
	if err != nil {
		v = "?"
	}
	b, err := os.ReadFile(bin)
	if err != nil {
		return v
	}
	sum := sha256.Sum256(b)
	return fmt.Sprintf("%s, sha256 %.6x…", v, sum[:])
}
