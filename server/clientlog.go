package server

import (
	"context"
	"log/slog"
	"math"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// clientAudience marks a log record meant for the client as well as the
// operator (feature packages write the same attribute themselves):
//
//	logger.WarnContext(ctx, "client root ignored", slog.String("audience", "client"), "root", uri)
//
// The server forwards such records to the client as notifications/message,
// at the level the client chose; every other record stays in the operator's
// log. A client record names files inside the roots only, as file:// URIs or
// root-relative paths, and never holds file contents.
var clientAudience = slog.String(audienceKey, audienceClient)

const (
	audienceKey    = "audience"
	audienceClient = "client"
)

// clientLogBurst and clientLogRate bound the notifications/message grove
// sends: a repository or tree crafted to make grove log on every entry must
// not flood the client. Past them records are dropped (the operator's log
// keeps them all).
const (
	clientLogBurst = 50
	clientLogRate  = 10 // records a second, once the burst is spent
)

// clientLog is the slog.Handler that forwards the records carrying
// audience=client to the client. The session is the one of the request
// whose context the record was logged with (see [clientLog.middleware]), or
// every session for a record no request caused. The level check is the
// SDK's (ServerSession.Log): the level set with logging/setLevel in the
// legacy era, the request's _meta logLevel in the modern one, and nothing
// when neither was given.
type clientLog struct {
	shared *clientLogState
	attrs  []groupedAttr // from WithAttrs
	group  string        // prefix of the open groups, "a.b."
}

// groupedAttr is an attribute and the groups it was logged in, as a key
// prefix ("a.b.").
type groupedAttr struct {
	prefix string
	attr   slog.Attr
}

type clientLogState struct {
	srv      atomic.Pointer[mcp.Server]
	minLevel atomic.Int64 // the lowest level any session set; math.MaxInt64 while none did
	lim      limiter
}

func newClientLog() *clientLog {
	st := &clientLogState{lim: limiter{burst: clientLogBurst, rate: clientLogRate, now: time.Now}}
	st.minLevel.Store(math.MaxInt64)
	return &clientLog{shared: st}
}

// attach sets the server whose sessions records go to.
func (h *clientLog) attach(srv *mcp.Server) { h.shared.srv.Store(srv) }

type (
	sessionKey      struct{}
	requestLevelKey struct{}
)

// withSession marks ctx as belonging to ss: client records logged with it go
// to ss alone.
func withSession(ctx context.Context, ss *mcp.ServerSession) context.Context {
	return context.WithValue(ctx, sessionKey{}, ss)
}

// middleware puts the request's session (and a modern request's log level)
// in its context, for records its handlers log; and notes levels set with
// logging/setLevel, so that Enabled stays cheap while no client listens.
func (h *clientLog) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if ss, ok := req.GetSession().(*mcp.ServerSession); ok {
			ctx = withSession(ctx, ss)
		}
		if isModern(req) {
			lvl, _ := req.GetParams().GetMeta()[mcp.MetaKeyLogLevel].(string)
			ctx = context.WithValue(ctx, requestLevelKey{}, lvl)
		}
		res, err := next(ctx, method, req)
		if p, ok := req.GetParams().(*mcp.SetLoggingLevelParams); ok && err == nil && method == "logging/setLevel" && p != nil {
			if l, ok := slogLevel(p.Level); ok {
				for {
					cur := h.shared.minLevel.Load()
					if int64(l) >= cur || h.shared.minLevel.CompareAndSwap(cur, int64(l)) {
						break
					}
				}
			}
		}
		return res, err
	}
}

// Enabled is a cheap first test; ServerSession.Log decides per session.
func (h *clientLog) Enabled(ctx context.Context, level slog.Level) bool {
	if v, ok := ctx.Value(requestLevelKey{}).(string); ok {
		l, ok := slogLevel(mcp.LoggingLevel(v))
		return ok && level >= l
	}
	return int64(level) >= h.shared.minLevel.Load()
}

func (h *clientLog) WithAttrs(as []slog.Attr) slog.Handler {
	h2 := *h
	h2.attrs = h.attrs[:len(h.attrs):len(h.attrs)]
	for _, a := range as {
		h2.attrs = append(h2.attrs, groupedAttr{h.group, a})
	}
	return &h2
}

func (h *clientLog) WithGroup(name string) slog.Handler {
	if name == "" {
		return h
	}
	h2 := *h
	h2.group = h.group + name + "."
	return &h2
}

func (h *clientLog) Handle(ctx context.Context, r slog.Record) error {
	attrs := h.attrs[:len(h.attrs):len(h.attrs)] // appending must not write into a clone's array
	r.Attrs(func(a slog.Attr) bool {
		attrs = append(attrs, groupedAttr{h.group, a})
		return true
	})
	if !forClient(attrs) || hasPath(r.Message) {
		return nil
	}
	srv := h.shared.srv.Load()
	if srv == nil || !h.shared.lim.allow() {
		return nil
	}
	params := &mcp.LoggingMessageParams{Level: mcpLevel(r.Level), Logger: "grove", Data: clientData(r.Message, attrs)}
	for _, a := range attrs {
		if a.attr.Key == "component" && a.attr.Value.Kind() == slog.KindString {
			params.Logger = "grove/" + a.attr.Value.String()
		}
	}
	if ss, ok := ctx.Value(sessionKey{}).(*mcp.ServerSession); ok {
		return ss.Log(ctx, params)
	}
	for ss := range srv.Sessions() {
		ss.Log(ctx, params) // a session that went away is no one's problem
	}
	return nil
}

// forClient reports whether an attribute, in any group, says audience=client.
func forClient(attrs []groupedAttr) bool {
	for _, a := range attrs {
		if a.attr.Key == audienceKey && a.attr.Value.Kind() == slog.KindString && a.attr.Value.String() == audienceClient {
			return true
		}
	}
	return false
}

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
