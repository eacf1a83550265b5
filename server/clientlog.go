package server

import (
	"context"
	"log/slog"
	"math"
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
