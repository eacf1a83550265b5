package httpserve

import (
	"context"
	"mime"
	"net/http"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// sseHandler serves the 2024-11-05 HTTP+SSE transport at /sse: a GET opens a
// session whose answers and notifications stream back as SSE "message"
// events, the first event ("endpoint") names the URL to POST messages to
// (/sse?sessionid=ID), and the session ends with the GET. It uses the SDK's
// [mcp.SSEServerTransport] for one session's stream, and keeps the sessions
// itself (rather than [mcp.SSEHandler]) so that a session counts against
// MaxSessions, is its creator's only, and has the MaxInFlight limit.
type sseHandler struct {
	f *front

	mu       sync.Mutex // guards sessions
	sessions map[string]*sseSession
}

type sseSession struct {
	t     *sseTransport
	user  string        // userOf the GET that opened it
	ready chan struct{} // closed once Connect returned: the endpoint event, written inside it, may bring a POST sooner
}

// sseTransport is the SDK's transport for one session, with its connection
// tracked.
type sseTransport struct {
	*mcp.SSEServerTransport // and its SupportsProtocolVersion: legacy only
	f                       *front
	id                      string       // the session's ID for the SDK and tokenOf
	conn                    *trackedConn // set by Connect
}

func (t *sseTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.SSEServerTransport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	t.conn = newTrackedConn(c, t.f, t.id)
	return t.conn, nil
}

func newSSEHandler(f *front) *sseHandler {
	return &sseHandler{f: f, sessions: make(map[string]*sseSession)}
}

func (h *sseHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.Method {
	case http.MethodGet:
		h.open(w, r)
	case http.MethodPost:
		h.post(w, r)
	default:
		w.Header().Set("Allow", "GET, POST")
		http.Error(w, "Method Not Allowed: GET /sse opens a session, POST /sse?sessionid=ID carries its messages", http.StatusMethodNotAllowed)
	}
}

// open serves a session for as long as the GET lasts.
func (h *sseHandler) open(w http.ResponseWriter, r *http.Request) {
	if !h.f.take(&h.f.conns) {
		h.f.full(w)
		return
	}
	defer h.f.release(&h.f.conns)
	id := h.f.hc.newSessionID()
	t := &sseTransport{f: h.f, id: newConnID(), SSEServerTransport: &mcp.SSEServerTransport{
		Endpoint:            r.URL.Path + "?sessionid=" + id,
		Response:            w,
		MaxRequestBodyBytes: h.f.hc.MaxBodyBytes,
	}}
	h.mu.Lock()
	ready := make(chan struct{})
	h.sessions[id] = &sseSession{t: t, user: userOf(r), ready: ready}
	h.mu.Unlock()
	defer func() {
		h.mu.Lock()
		delete(h.sessions, id)
		h.mu.Unlock()
	}()
	h.f.addPrincipal(t.id, auth.TokenInfoFromContext(r.Context()))
	defer h.f.removePrincipal(t.id)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("X-Accel-Buffering", "no") // a proxy must pass each event on at once
	ss, err := h.f.mcp.Connect(r.Context(), t, nil)
	close(ready)
	if err != nil {
		h.f.logger.Warn("SSE session did not start", "err", err)
		http.Error(w, "Internal Server Error: the session did not start", http.StatusInternalServerError)
		return
	}
	stop := context.AfterFunc(r.Context(), func() { ss.Close() })
	defer stop()
	ss.Wait()
}

// post hands a message to its session, within the body and in-flight
// limits. An unknown session and another user's look the same: 404.
func (h *sseHandler) post(w http.ResponseWriter, r *http.Request) {
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		http.Error(w, "Unsupported Media Type: Content-Type must be application/json", http.StatusUnsupportedMediaType)
		return
	}
	h.mu.Lock()
	s := h.sessions[r.URL.Query().Get("sessionid")]
	h.mu.Unlock()
	if s != nil {
		select {
		case <-s.ready:
		case <-r.Context().Done():
			return
		}
	}
	if s == nil || s.user != userOf(r) || s.t.conn == nil {
		http.Error(w, "Not Found: no such session (open one with GET /sse)", http.StatusNotFound)
		return
	}
	body, ok := h.f.readBody(w, r)
	if !ok {
		return
	}
	requests, _ := classify(body)
	switch {
	case requests > 0 && h.f.draining.Load():
		h.f.refuseDraining(w)
		return
	case requests > 0 && s.t.conn.inFlight()+requests > h.f.hc.MaxInFlight:
		h.f.tooMany(w, h.f.hc.MaxInFlight)
		return
	}
	s.t.ServeHTTP(w, r)
}
