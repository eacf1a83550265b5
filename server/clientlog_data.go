package server

import (
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// What of a client record leaves the process, at which protocol level, and
// how many.

// droppedKeys name attributes that never reach the client: errors (their text
// comes from the OS and libraries, and holds real paths), panics and stacks;
// audience and component are said otherwise.
var droppedKeys = map[string]bool{
	audienceKey: true, "component": true, "err": true, "error": true, "panic": true, "stack": true,
}

// clientData is the data of a client record: its message and the attributes
// that may leave the process. Only plain values pass (strings, numbers,
// booleans, durations, times); a string holding an absolute OS path is left
// out, since in-root files are named by URI or root-relative path, and
// anything else may not be meant for the client.
func clientData(msg string, attrs []groupedAttr) map[string]any {
	data := map[string]any{"msg": msg}
	for _, a := range attrs {
		addClientAttr(data, a.prefix, a.attr)
	}
	return data
}

func addClientAttr(data map[string]any, prefix string, a slog.Attr) {
	if droppedKeys[a.Key] {
		return
	}
	v := a.Value.Resolve()
	key := prefix + a.Key
	switch v.Kind() {
	case slog.KindGroup:
		if a.Key != "" {
			prefix = key + "."
		}
		for _, g := range v.Group() {
			addClientAttr(data, prefix, g)
		}
	case slog.KindString:
		if s := v.String(); !hasPath(s) {
			data[key] = s
		}
	case slog.KindInt64, slog.KindUint64, slog.KindFloat64, slog.KindBool:
		data[key] = v.Any()
	case slog.KindDuration:
		data[key] = v.Duration().String()
	case slog.KindTime:
		data[key] = v.Time().UTC().Format(time.RFC3339Nano)
	}
}

// hasPath reports whether s holds an absolute OS path: a slash at its start
// or after a space, quote, parenthesis, '=' or ','. A file:// URI does not
// count: its slashes follow "file:".
func hasPath(s string) bool {
	for i := strings.IndexByte(s, '/'); i >= 0; {
		if i == 0 || strings.IndexByte(" \t\n\"'(=,[", s[i-1]) >= 0 {
			return true
		}
		j := strings.IndexByte(s[i+1:], '/')
		if j < 0 {
			return false
		}
		i += 1 + j
	}
	return false
}

// mcpLevels are the protocol's levels, lowest first, with the slog levels
// the SDK maps them to.
var mcpLevels = []struct {
	name  mcp.LoggingLevel
	level slog.Level
}{
	{"debug", mcp.LevelDebug}, {"info", mcp.LevelInfo}, {"notice", mcp.LevelNotice},
	{"warning", mcp.LevelWarning}, {"error", mcp.LevelError}, {"critical", mcp.LevelCritical},
	{"alert", mcp.LevelAlert}, {"emergency", mcp.LevelEmergency},
}

// mcpLevel is the highest protocol level at or below l (the SDK's own
// mapping sends every level it does not know, such as Info+1, as debug).
func mcpLevel(l slog.Level) mcp.LoggingLevel {
	name := mcpLevels[0].name
	for _, m := range mcpLevels {
		if l >= m.level {
			name = m.name
		}
	}
	return name
}

func slogLevel(name mcp.LoggingLevel) (slog.Level, bool) {
	for _, m := range mcpLevels {
		if m.name == name {
			return m.level, true
		}
	}
	return 0, false
}

// limiter is a token bucket: burst records at once, then rate a second.
type limiter struct {
	burst, rate int
	now         func() time.Time

	mu     sync.Mutex // guards the fields below
	tokens float64
	last   time.Time
}

func (l *limiter) allow() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	if l.last.IsZero() {
		l.tokens = float64(l.burst)
	} else {
		l.tokens = min(float64(l.burst), l.tokens+now.Sub(l.last).Seconds()*float64(l.rate))
	}
	l.last = now
	if l.tokens < 1 {
		return false
	}
	l.tokens--
	return true
}
