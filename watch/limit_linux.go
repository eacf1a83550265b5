package watch

import (
	"os"
	"strconv"
	"strings"
)

// systemLimit reads the per-user inotify watch limit; 0 when it can't.
func systemLimit() int {
	b, err := os.ReadFile("/proc/sys/fs/inotify/max_user_watches")
	if err != nil {
		return 0
	}
	n, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		return 0
	}
	return n
}
