package httpserve

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"
)

// limit applies the per-request limits, then routes the request:
//   - a body larger than MaxBodyBytes: 413;
//   - a new session (a legacy POST without Mcp-Session-Id) or a modern
//     subscriptions/listen stream past MaxSessions: 503, with Retry-After.
//     503, not 429: the server is full for everyone, the caller did nothing
//     wrong and gets in once a session ends;
//   - a session's requests in flight past MaxInFlight: 429, with
//     Retry-After: that caller is going too fast. Modern requests have no
//     session and share MaxSessions × MaxInFlight. (A legacy batch of more
//     requests than MaxInFlight is refused whole.)
//
// Bodies holding only responses and notifications (a client answering
// roots/list) are never refused for in-flight requests, nor while shutting
// down: a request of that session may be waiting for them.
func (f *front) limit(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		f.route(w, r)
		return
	}
	body, ok := f.readBody(w, r)
	if !ok {
		return
	}
	requests, listen := classify(body)
	if requests > 0 && f.draining.Load() {
		f.refuseDraining(w)
		return
	}
	sid := r.Header.Get("Mcp-Session-Id")
	modern := modernHeader(r)
	switch {
	case listen && modern:
		if !f.take(&f.listens) {
			f.full(w)
			return
		}
		defer f.release(&f.listens)
	case !modern && sid == "":
		if !f.take(&f.pending) {
			f.full(w)
			return
		}
		defer f.release(&f.pending)
	}
	if requests > 0 && !listen {
		key, max := sid, f.hc.MaxInFlight
		if modern {
			key, max = modernKey, f.hc.MaxInFlight*f.hc.MaxSessions
		}
		if key != "" { // a new legacy session has nothing in flight yet
			if !f.enter(key, requests, max) {
				f.tooMany(w, max)
				return
			}
			defer f.exit(key, requests)
		}
		f.startWork()
		defer f.endWork()
	}
	f.route(w, r)
}

// modernKey counts the modern requests in flight; no header can hold it.
const modernKey = "\x00modern"

// readBody reads a POST's body whole, within MaxBodyBytes and the body
// timeout, and puts it back for the SDK; on failure it has answered.
func (f *front) readBody(w http.ResponseWriter, r *http.Request) ([]byte, bool) {
	rc := http.NewResponseController(w)
	rc.SetReadDeadline(time.Now().Add(f.hc.bodyTimeout))
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, f.hc.MaxBodyBytes))
	rc.SetReadDeadline(time.Time{})
	if err != nil {
		var mbe *http.MaxBytesError
		switch {
		case errors.As(err, &mbe):
			http.Error(w, fmt.Sprintf("Request Entity Too Large: the body exceeds %d bytes (--http-max-body)", mbe.Limit), http.StatusRequestEntityTooLarge)
		case errors.Is(err, os.ErrDeadlineExceeded):
			w.Header().Set("Connection", "close")
			http.Error(w, fmt.Sprintf("Request Timeout: the body did not arrive within %v", f.hc.bodyTimeout), http.StatusRequestTimeout)
		default:
			http.Error(w, "Bad Request: reading the body failed", http.StatusBadRequest)
		}
		return nil, false
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	return body, true
}

// take counts one more session-like thing in *n, if the server has room.
// Live Streamable HTTP sessions are the SDK's, those with an ID; the
// connection-based ones (SSE, WebSocket) count in conns. A session being set
// up counts twice for a moment (pending, and live once the SDK registered
// it), so near the limit a concurrent initialize may be refused early; it
// never lets one too many in.
func (f *front) take(n *int) bool {
	live := 0
	for ss := range f.mcp.Sessions() {
		if ss.ID() != "" && !strings.HasPrefix(ss.ID(), connIDPrefix) { // those count in conns
			live++
		}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if live+f.pending+f.listens+f.conns >= f.hc.MaxSessions {
		return false
	}
	*n++
	return true
}

func (f *front) release(n *int) {
	f.mu.Lock()
	*n--
	f.mu.Unlock()
}

func (f *front) full(w http.ResponseWriter) {
	w.Header().Set("Retry-After", "5")
	http.Error(w, fmt.Sprintf("Service Unavailable: %d sessions are open, the most grove serves (--http-max-sessions)", f.hc.MaxSessions), http.StatusServiceUnavailable)
}

func (f *front) tooMany(w http.ResponseWriter, max int) {
	w.Header().Set("Retry-After", "1")
	http.Error(w, fmt.Sprintf("Too Many Requests: more than %d requests in flight for this session (--http-max-in-flight)", max), http.StatusTooManyRequests)
}

func (f *front) enter(key string, n, max int) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.inFlight[key]+n > max {
		return false
	}
	f.inFlight[key] += n
	return true
}

func (f *front) exit(key string, n int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.inFlight[key] -= n; f.inFlight[key] <= 0 {
		delete(f.inFlight, key)
	}
}

func (f *front) startWork() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.working++; f.idle == nil {
		f.idle = make(chan struct{})
	}
}

func (f *front) endWork() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.working--; f.working == 0 {
		close(f.idle)
		f.idle = nil
	}
}

// waitWork returns once no request is in flight, or when ctx is done.
func (f *front) waitWork(ctx context.Context) {
	f.mu.Lock()
	idle := f.idle
	f.mu.Unlock()
	if idle == nil {
		return
	}
	select {
	case <-idle:
	case <-ctx.Done():
	}
}

// classify counts the requests (messages with an id and a method) in a
// JSON-RPC body, a message or a batch, and says whether one is
// subscriptions/listen. A body that does not parse counts as one request:
// the SDK answers it.
func classify(body []byte) (requests int, listen bool) {
	type message struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	var msgs []message
	if b := bytes.TrimLeft(body, " \t\r\n"); len(b) > 0 && b[0] == '[' {
		if json.Unmarshal(b, &msgs) != nil {
			return 1, false
		}
	} else {
		var m message
		if json.Unmarshal(b, &m) != nil {
			return 1, false
		}
		msgs = []message{m}
	}
	for _, m := range msgs {
		if m.Method != "" && len(m.ID) > 0 && string(m.ID) != "null" {
			requests++
		}
		listen = listen || m.Method == "subscriptions/listen"
	}
	return requests, listen
}
