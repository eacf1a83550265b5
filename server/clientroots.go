package server

// Every use of the deprecated roots API (SEP-2577) lives in this file: the
// legacy session-level roots/list exchange and the modern per-request roots
// carried by multi-round-trip input requests.

import (
	"context"
	"log/slog"
	"reflect"
	"sync"
	"time"

	"github.com/grove-mcp/grove/internal/panics"
	"github.com/grove-mcp/grove/roots"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// rootsTimeout bounds how long grove waits for a client's roots/list answer.
// A client that never answers must not hang anything: after this, requests
// go on with the last good set.
const rootsTimeout = 5 * time.Second

// modernVersion is the first protocol version without sessions, where roots
// travel with each request.
const modernVersion = "2026-07-28"

// clientRoots keeps the legacy session's client roots up to date.
type clientRoots struct {
	set      *roots.Set
	logger   *slog.Logger
	onChange func(ctx context.Context, old, sc *roots.Scope) // called with the session scope before and after a change

	// applyMu orders roots changes and what follows from them (onChange,
	// client log records), without holding up requests that read mu.
	applyMu sync.Mutex

	// own, for one HTTP session of many, keeps the session's roots here;
	// otherwise (stdio: one session) they live in set.
	own bool

	mu          sync.Mutex                  // guards the fields below
	gen         int                         // generation of the newest fetch
	applied     int                         // generation of the set now in force
	pending     chan struct{}               // closed when the newest fetch ends; nil when none ran
	initialized map[*mcp.ServerSession]bool // sessions that sent notifications/initialized
	scope       *roots.Scope                // own: the session's roots; nil until the client sent some
	dropped     []string                    // own: the client roots the last narrowing refused
}

func newClientRoots(set *roots.Set, logger *slog.Logger) *clientRoots {
	return &clientRoots{set: set, logger: logger.With("component", "roots"), initialized: make(map[*mcp.ServerSession]bool)}
}

// installClientRoots routes the roots notifications to the client roots of
// their session.
func (s *Server) installClientRoots(opts *mcp.ServerOptions) {
	opts.InitializedHandler = func(_ context.Context, req *mcp.InitializedRequest) {
		c := s.clientFor(req.Session)
		c.markInitialized(req.Session)
		c.refresh(req.Session)
	}
	opts.RootsListChangedHandler = func(_ context.Context, req *mcp.RootsListChangedRequest) {
		s.clientFor(req.Session).refresh(req.Session)
	}
}

// current returns the session's roots in force.
func (c *clientRoots) current() *roots.Scope {
	if !c.own {
		return c.set.Scope()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.scope == nil {
		return c.set.Ceiling()
	}
	return c.scope
}

// refused returns the client roots the last change refused, and why.
func (c *clientRoots) refused() []string {
	if !c.own {
		return c.set.Dropped()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.dropped...)
}

// setClient narrows the ceiling by the client's roots for the session.
func (c *clientRoots) setClient(rs []roots.ClientRoot) *roots.Scope {
	if !c.own {
		return c.set.SetClient(rs)
	}
	sc, dropped := c.set.Narrow(rs)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.scope, c.dropped = sc, dropped
	return sc
}

// markInitialized records that ss sent notifications/initialized: from then
// on grove may send it requests. (The SDK counts a session as initialized
// from its initialize request, and keeps the notification to itself.)
func (c *clientRoots) markInitialized(ss *mcp.ServerSession) {
	c.mu.Lock()
	c.initialized[ss] = true
	c.mu.Unlock()
	go func() {
		defer panics.Log(c.logger, "forgetting a closed session")
		ss.Wait()
		c.mu.Lock()
		delete(c.initialized, ss)
		c.mu.Unlock()
	}()
}

// mayRequest reports whether grove may send ss a request: not before its
// notifications/initialized (the protocol says a server SHOULD NOT).
func (c *clientRoots) mayRequest(ss *mcp.ServerSession) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.initialized[ss]
}

// refresh asks the client for its roots in the background. The SDK does not
// check the client's capability for us, so we do; nor does it hold back a
// roots/list_changed that comes before initialized, whose handler asks anyway.
func (c *clientRoots) refresh(ss *mcp.ServerSession) {
	p := ss.InitializeParams()
	if p == nil || p.Capabilities == nil || p.Capabilities.RootsV2 == nil || !c.mayRequest(ss) {
		return
	}
	done := make(chan struct{})
	c.mu.Lock()
	c.gen++
	gen := c.gen
	c.pending = done
	c.mu.Unlock()
	go func() {
		defer close(done)
		defer panics.Log(c.logger, "fetching the client's roots")
		ctx, cancel := context.WithTimeout(withSession(context.Background(), ss), rootsTimeout)
		defer cancel()
		res, err := ss.ListRoots(ctx, nil)
		if err != nil {
			c.logger.Warn("roots/list failed; keeping the last good roots", "err", err)
			return
		}
		c.apply(ctx, gen, res.Roots)
	}()
}

// apply installs the roots of fetch gen unless a newer fetch already did,
// and tells the client which of its roots grove refused.
func (c *clientRoots) apply(ctx context.Context, gen int, rs []*mcp.Root) {
	c.applyMu.Lock()
	defer c.applyMu.Unlock()
	c.mu.Lock()
	stale := gen < c.applied
	if !stale {
		c.applied = gen
	}
	c.mu.Unlock()
	if stale {
		return
	}
	old := c.current()
	sc := c.setClient(clientRootList(rs))
	dropped := c.refused()
	c.logger.Info("client roots changed", "roots", len(sc.Roots()), "ignored", len(dropped))
	for _, d := range dropped {
		// d is the client's own URI and a reason that tells nothing of the disk.
		c.logger.WarnContext(ctx, "client root ignored", clientAudience, "root", d)
	}
	if c.onChange != nil {
		c.onChange(ctx, old, sc)
	}
}

// wait lets a request see the answer to a roots/list in flight, so that a
// tool call right after a roots change sees the new roots.
func (c *clientRoots) wait(ctx context.Context) {
	c.mu.Lock()
	p := c.pending
	c.mu.Unlock()
	if p == nil {
		return
	}
	t := time.NewTimer(rootsTimeout)
	defer t.Stop()
	select {
	case <-p:
	case <-t.C:
	case <-ctx.Done():
	}
}

func clientRootList(rs []*mcp.Root) []roots.ClientRoot {
	out := make([]roots.ClientRoot, 0, len(rs))
	for _, r := range rs {
		if r != nil {
			out = append(out, roots.ClientRoot{URI: r.URI, Name: r.Name})
		}
	}
	return out
}

// Scope implements [scope.Provider]: the roots a request may use.
//   - A modern retry that carries the client's roots: the ceiling narrowed by them.
//   - A modern request whose client declares roots: ask for them first
//     (tools/call, prompts/get and resources/read only; other methods cannot).
//   - Other modern requests: the operator's roots.
//   - Legacy: the session's roots.
func (s *Server) Scope(req mcp.Request) (*roots.Scope, mcp.InputRequestMap) {
	sc, ask, _ := s.requestScope(req)
	return sc, ask
}

// requestScope is Scope, with the client roots refused for the request (or,
// in the legacy era, for the session).
func (s *Server) requestScope(req mcp.Request) (*roots.Scope, mcp.InputRequestMap, []string) {
	responses, retryable, caps := requestRootsInfo(req)
	if lr, ok := responses["roots"].(*mcp.ListRootsResult); ok {
		sc, dropped := s.set.Narrow(clientRootList(lr.Roots))
		return sc, nil, dropped
	}
	if !isModern(req) {
		c := s.clientOf(req)
		c.wait(context.Background())
		return c.current(), nil, c.refused()
	}
	if retryable && caps != nil && caps.RootsV2 != nil && s.mayAskRoots(req) {
		return nil, mcp.InputRequestMap{"roots": &mcp.ListRootsParams{}}, nil
	}
	return s.set.Ceiling(), nil, nil
}

// mayAskRoots reports whether a modern request may ask for the client's
// roots. The SDK answers the input request itself, with a roots/list request,
// when the session began with a legacy initialize: before that session's
// notifications/initialized, grove must not, and the ceiling answers.
func (s *Server) mayAskRoots(req mcp.Request) bool {
	ss, ok := req.GetSession().(*mcp.ServerSession)
	if !ok {
		return true
	}
	p := ss.InitializeParams()
	if p == nil || p.ProtocolVersion >= modernVersion {
		return true // the input request goes back to the client in the result
	}
	return s.clientFor(ss).mayRequest(ss)
}

// requestRootsInfo returns the input responses of a request that can carry
// them, and the client's capabilities as of that request.
func requestRootsInfo(req mcp.Request) (mcp.InputResponseMap, bool, *mcp.ClientCapabilities) {
	switch r := req.(type) {
	case *mcp.CallToolRequest:
		if r.Params != nil {
			return r.Params.InputResponses, true, r.ClientCapabilities()
		}
	case *mcp.GetPromptRequest:
		if r.Params != nil {
			return r.Params.InputResponses, true, r.ClientCapabilities()
		}
	case *mcp.ReadResourceRequest:
		if r.Params != nil {
			return r.Params.InputResponses, true, r.ClientCapabilities()
		}
	}
	return nil, false, nil
}

// isModern reports whether req follows the 2026-07-28 protocol, by its own
// _meta: the era is a property of each request, not of the connection (a
// session the SDK once saw a modern request on still serves legacy ones).
func isModern(req mcp.Request) bool {
	p := req.GetParams()
	if p == nil || reflect.ValueOf(p).IsNil() {
		return false
	}
	v, _ := p.GetMeta()[mcp.MetaKeyProtocolVersion].(string)
	return v >= modernVersion
}
