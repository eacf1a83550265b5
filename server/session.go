package server

import (
	"context"
	"log/slog"
	"slices"
	"sync"

	"github.com/grove-mcp/grove/fsres"
	"github.com/grove-mcp/grove/internal/panics"
	"github.com/grove-mcp/grove/roots"
	"github.com/grove-mcp/grove/watch"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Over HTTP one grove serves many clients, and each is a client of its own:
// its roots narrow the operator's ceiling for it alone, and what it
// subscribed to, the log level it set and the log records its requests
// cause reach it alone. What is costly and the same for all stays shared:
// the ceiling (roots.Set), the repositories (gittools.Repos), the file
// caches (fsres.Files), the watcher and the notifier, which watch the whole
// ceiling.
//
// Per session: the client roots (a clientRoots of its own, below); the
// subscriptions (the notifier's record is by session already, and
// ownNotifications checks each update against the session's own roots);
// the log level and client log records (the SDK's, by session; see
// clientLog). Over stdio there is one session, and s.client serves it.

// sessions holds the client roots of each live HTTP session.
type sessions struct {
	s *Server

	mu     sync.Mutex // guards the fields below
	byConn map[*mcp.ServerSession]*clientRoots
	// listFor holds the legacy sessions owed a resources list_changed: the
	// SDK sends it to every session, and ownNotifications lets it through
	// to these only.
	listFor map[*mcp.ServerSession]bool
}

func newSessions(s *Server) *sessions {
	return &sessions{s: s, byConn: make(map[*mcp.ServerSession]*clientRoots), listFor: make(map[*mcp.ServerSession]bool)}
}

// clientFor returns the client roots of ss: its own over HTTP, the one
// session's over stdio.
func (s *Server) clientFor(ss *mcp.ServerSession) *clientRoots {
	if s.multi == nil || ss == nil {
		return s.client
	}
	return s.multi.get(ss)
}

// clientOf is clientFor the session of req.
func (s *Server) clientOf(req mcp.Request) *clientRoots {
	ss, _ := req.GetSession().(*mcp.ServerSession)
	return s.clientFor(ss)
}

func (m *sessions) get(ss *mcp.ServerSession) *clientRoots {
	m.mu.Lock()
	defer m.mu.Unlock()
	if c := m.byConn[ss]; c != nil {
		return c
	}
	c := newClientRoots(m.s.set, m.s.logger)
	c.own = true
	c.onChange = func(ctx context.Context, old, sc *roots.Scope) { m.s.sessionRootsChanged(ctx, ss, old, sc) }
	m.byConn[ss] = c
	go func() {
		defer panics.Log(m.s.logger, "forgetting a closed session's roots")
		ss.Wait()
		m.mu.Lock()
		delete(m.byConn, ss)
		delete(m.listFor, ss)
		m.mu.Unlock()
	}()
	return c
}

// count returns the sessions with roots state, for tests.
func (m *sessions) count() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.byConn)
}

// sessionRootsChanged is rootsChanged for one HTTP session: its
// subscriptions are re-scoped, and it alone is told its list changed; the
// watches stay on the whole ceiling.
func (s *Server) sessionRootsChanged(ctx context.Context, ss *mcp.ServerSession, old, sc *roots.Scope) {
	s.notify.rescopeSession(ctx, sc, ss)
	for _, r := range sc.Roots() {
		s.repos.Warm(sc, r.Path)
	}
	if old != nil && !slices.Equal(old.Roots(), sc.Roots()) {
		s.multi.mark(ss)
		s.resourcesChanged()
	}
}

func (m *sessions) mark(ss *mcp.ServerSession) {
	m.mu.Lock()
	m.listFor[ss] = true
	m.mu.Unlock()
}

// markBatch marks the legacy sessions whose own roots hold a file the batch
// created or removed (every one after a rescan). A nil m (stdio) marks none.
func (m *sessions) markBatch(b watch.Batch) {
	if m == nil {
		return
	}
	for ss := range m.s.mcp.Sessions() {
		if !legacySession(ss) {
			continue
		}
		sc := m.s.clientFor(ss).current()
		in := func(p string) bool { _, ok := sc.Locate(p); return ok }
		if b.Rescan || slices.ContainsFunc(b.Created, in) || slices.ContainsFunc(b.Removed, in) {
			m.mark(ss)
		}
	}
}

// owed reports whether ss is owed a list_changed, and clears it.
func (m *sessions) owed(ss *mcp.ServerSession) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	ok := m.listFor[ss]
	delete(m.listFor, ss)
	return ok
}

// legacySession reports whether ss began with a legacy initialize: modern
// sessions have no roots of their own, and opted in to what they hear.
func legacySession(ss *mcp.ServerSession) bool {
	p := ss.InitializeParams()
	return p != nil && p.ProtocolVersion < modernVersion
}

// ownNotifications is sending middleware, over HTTP only. The SDK sends a
// resource update to every session subscribed to the URI, and a session
// whose own roots do not reach the file (now) must not hear of it; it sends
// list_changed to every session, and a legacy session hears of it only when
// the change was in its own roots (or its roots changed).
func (s *Server) ownNotifications(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		ss, _ := req.GetSession().(*mcp.ServerSession)
		switch method {
		case "notifications/resources/updated":
			p, _ := req.GetParams().(*mcp.ResourceUpdatedNotificationParams)
			if p == nil || ss == nil || !s.notify.liveFor(ss, p.URI, s.clientFor(ss).current) {
				return nil, nil
			}
		case "notifications/resources/list_changed":
			if ss != nil && legacySession(ss) && !s.multi.owed(ss) {
				return nil, nil
			}
		}
		return next(ctx, method, req)
	}
}

// liveFor reports whether ss subscribed to uri, the subscription is not
// dormant, and the file resolves inside the roots that scope it: the
// operator's for a modern subscription, legacy() the session's own.
func (n *notifier) liveFor(ss *mcp.ServerSession, uri string, legacy func() *roots.Scope) bool {
	n.mu.Lock()
	sub, ok := n.sess[ss][uri]
	var cp subscription
	if ok {
		cp = *sub
	}
	n.mu.Unlock()
	if !ok || cp.dormant {
		return false
	}
	var sc *roots.Scope
	if cp.modern {
		sc = n.scope(true)
	} else {
		sc = legacy()
	}
	_, _, err := fsres.ResolveResource(sc, cp.abs)
	return err == nil
}

// sdkLogger is the SDK server's logger. Over HTTP the SDK logs every modern
// request's session at info ("server session connected", "…disconnected"),
// three lines a request; there its info records are debug records.
func (s *Server) sdkLogger() *slog.Logger {
	l := s.logger.With("component", "mcp")
	if s.multi == nil {
		return l
	}
	return slog.New(demoteInfo{l.Handler()})
}

// demoteInfo is a slog.Handler that logs info records at debug level.
type demoteInfo struct{ slog.Handler }

func (h demoteInfo) Enabled(ctx context.Context, level slog.Level) bool {
	if level == slog.LevelInfo {
		level = slog.LevelDebug
	}
	return h.Handler.Enabled(ctx, level)
}

func (h demoteInfo) Handle(ctx context.Context, r slog.Record) error {
	if r.Level == slog.LevelInfo {
		r.Level = slog.LevelDebug
	}
	return h.Handler.Handle(ctx, r)
}

func (h demoteInfo) WithAttrs(as []slog.Attr) slog.Handler {
	return demoteInfo{h.Handler.WithAttrs(as)}
}
func (h demoteInfo) WithGroup(name string) slog.Handler { return demoteInfo{h.Handler.WithGroup(name)} }
