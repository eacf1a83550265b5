package history

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// parseDate reads the date forms people pass to git's --since/--until: RFC 3339, "2006-01-02",
// "2006-01-02 15:04[:05]", a Unix timestamp, "yesterday", "today", and "<n> <unit>[s] [ago]"
// (seconds, minutes, hours, days, weeks, months, years).
func parseDate(s string, now time.Time) (time.Time, error) {
	s = strings.TrimSpace(s)
	for _, layout := range []string{time.RFC3339, "2006-01-02T15:04:05", "2006-01-02 15:04:05", "2006-01-02 15:04", "2006-01-02"} {
		if t, err := time.ParseInLocation(layout, s, time.Local); err == nil {
			return t, nil
		}
	}
	if n, err := strconv.ParseInt(s, 10, 64); err == nil && n > 100000000 {
		return time.Unix(n, 0), nil
	}
	switch strings.ToLower(s) {
	case "now", "today":
		return now, nil
	case "yesterday":
		return now.AddDate(0, 0, -1), nil
	}
	return relativeDate(s, now)
}

func relativeDate(s string, now time.Time) (time.Time, error) {
	f := strings.Fields(strings.ToLower(strings.ReplaceAll(s, ".", " ")))
	if len(f) == 3 && f[2] == "ago" {
		f = f[:2]
	}
	if len(f) != 2 {
		return time.Time{}, fmt.Errorf("unrecognised date %q (use YYYY-MM-DD, RFC 3339 or \"2 weeks ago\")", s)
	}
	n, err := strconv.Atoi(f[0])
	if err != nil || n < 0 {
		return time.Time{}, fmt.Errorf("unrecognised date %q", s)
	}
	switch strings.TrimSuffix(f[1], "s") {
	case "second", "sec":
		return now.Add(-time.Duration(n) * time.Second), nil
	case "minute", "min":
		return now.Add(-time.Duration(n) * time.Minute), nil
	case "hour":
		return now.Add(-time.Duration(n) * time.Hour), nil
	case "day":
		return now.AddDate(0, 0, -n), nil
	case "week":
		return now.AddDate(0, 0, -7*n), nil
	case "month":
		return now.AddDate(0, -n, 0), nil
	case "year":
		return now.AddDate(-n, 0, 0), nil
	}
	return time.Time{}, fmt.Errorf("unrecognised date unit in %q", s)
}
