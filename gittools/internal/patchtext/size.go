package patchtext

import (
	"fmt"
	"strings"

	"github.com/grove-mcp/grove/internal/words"
)

// TooLarge is the error, and the description a client sees, for a blob over the read limit.
type TooLarge struct{ Size, Limit int64 }

func (e *TooLarge) Error() string {
	return fmt.Sprintf("blob of %s not shown (over the %s limit; raise it with --max-file-size)", SizeText(e.Size), SizeText(e.Limit))
}

// SizeText writes a byte count the way the limits are documented: "300 MiB", "1.5 KiB", "20 bytes".
func SizeText(n int64) string {
	const unit = 1024
	if n < unit {
		return words.Count(int(n), "byte", "bytes")
	}
	v, i := float64(n), -1
	for v >= unit && i < 4 {
		v /= unit
		i++
	}
	s := fmt.Sprintf("%.1f", v)
	s = strings.TrimSuffix(s, ".0")
	return s + " " + []string{"KiB", "MiB", "GiB", "TiB", "PiB"}[i]
}
