package httpserve

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/coder/websocket"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// WebSocket timings. A client that does not answer a ping, or does not read
// what grove writes, within these ends its session: its unread messages
// would otherwise pile up in grove's memory.
const (
	wsPingInterval = 30 * time.Second // under the idle timeouts of common proxies (nginx: 60s)
	wsPongTimeout  = 15 * time.Second
	wsWriteTimeout = 15 * time.Second
)

// wsSubprotocol is the Sec-WebSocket-Protocol MCP clients ask for (the
// TypeScript SDK's WebSocketClientTransport). grove requires it, so that a
// WebSocket client of some other protocol never reaches it by mistake.
const wsSubprotocol = "mcp"

// wsHandler serves MCP over WebSocket at /ws: one JSON-RPC message per text
// frame, both protocol eras on one connection (as over stdio), one session
// per connection. The upgrade passes the same Host, Origin and token checks
// as every other request; the Origin check is what stops cross-site
// WebSocket hijacking, since a browser lets any page open a WebSocket to
// any host.
type wsHandler struct{ f *front }

func (h wsHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet {
		w.Header().Set("Allow", "GET")
		http.Error(w, "Method Not Allowed: /ws takes a WebSocket upgrade (GET)", http.StatusMethodNotAllowed)
		return
	}
	if !h.f.take(&h.f.conns) {
		h.f.full(w)
		return
	}
	defer h.f.release(&h.f.conns)
	ws, err := websocket.Accept(w, r, &websocket.AcceptOptions{
		Subprotocols: []string{wsSubprotocol},
		// guard already checked Origin, with the operator's allow-list.
		InsecureSkipVerify: true,
	})
	if err != nil {
		return // Accept answered
	}
	if ws.Subprotocol() != wsSubprotocol {
		ws.Close(websocket.StatusPolicyViolation, "ask for the subprotocol "+wsSubprotocol)
		return
	}
	ws.SetReadLimit(h.f.hc.MaxBodyBytes)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	id := newConnID()
	h.f.addPrincipal(id, auth.TokenInfoFromContext(r.Context()))
	defer h.f.removePrincipal(id)
	c := newTrackedConn(&wsConn{ws: ws, writeTimeout: h.f.hc.writeTimeout}, h.f, id)
	c.max = h.f.hc.MaxInFlight
	ss, err := h.f.mcp.Connect(ctx, wsTransport{c}, nil)
	if err != nil {
		h.f.logger.Warn("WebSocket session did not start", "err", err)
		ws.Close(websocket.StatusInternalError, "the session did not start")
		return
	}
	var wg sync.WaitGroup
	wg.Go(func() { keepAlive(ctx, ws, ss) })
	ss.Wait()
	cancel()
	wg.Wait()
}

// keepAlive pings the client until ctx is done, and ends the session when
// a pong does not come back in time: a half-open connection would
// otherwise hold a session slot forever.
func keepAlive(ctx context.Context, ws *websocket.Conn, ss *mcp.ServerSession) {
	t := time.NewTicker(wsPingInterval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		pctx, cancel := context.WithTimeout(ctx, wsPongTimeout)
		err := ws.Ping(pctx)
		cancel()
		if err != nil {
			ss.Close()
			return
		}
	}
}

// wsTransport hands the SDK a connection already open.
type wsTransport struct{ c mcp.Connection }

func (t wsTransport) Connect(context.Context) (mcp.Connection, error) { return t.c, nil }

// wsConn is one WebSocket as an [mcp.Connection].
type wsConn struct {
	ws           *websocket.Conn
	writeTimeout time.Duration
}

func (c *wsConn) SessionID() string { return "" }

// Read returns the next message. A frame that is not text, or larger than
// the read limit, ends the connection (the library closes it with 1003 or
// 1009); a text frame that is not JSON-RPC gets a parse error and the
// connection goes on, as a bad line does over stdio.
func (c *wsConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	for {
		typ, data, err := c.ws.Read(ctx)
		if err != nil {
			return nil, err
		}
		if typ != websocket.MessageText {
			c.ws.Close(websocket.StatusUnsupportedData, "MCP messages are text frames")
			return nil, errors.New("a binary frame")
		}
		msg, err := jsonrpc.DecodeMessage(data)
		if err == nil {
			return msg, nil
		}
		res := &jsonrpc.Response{Error: &jsonrpc.Error{Code: jsonrpc.CodeParseError, Message: fmt.Sprintf("not a JSON-RPC message: %v", err)}}
		if err := c.Write(ctx, res); err != nil {
			return nil, err
		}
	}
}

// Write sends one message as a text frame. A client that does not take it
// within its write timeout (wsWriteTimeout) loses its connection, which bounds what a slow
// reader can make grove hold.
func (c *wsConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, c.writeTimeout)
	defer cancel()
	return c.ws.Write(ctx, websocket.MessageText, data)
}

// Close sends a close frame and waits (at most 5 s, the library's bound)
// for the client's; a second Close returns at once.
func (c *wsConn) Close() error {
	c.ws.Close(websocket.StatusNormalClosure, "")
	return nil
}

// queryToken takes a bearer token from the access_token query parameter
// (RFC 6750 section 2.3) when the request has no Authorization header: a
// browser's WebSocket API cannot send headers, and neither can a client
// configured with a URL only. The parameter is removed, so that nothing
// behind logs it.
func queryToken(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		if tok := q.Get("access_token"); tok != "" {
			r = r.Clone(r.Context())
			if r.Header.Get("Authorization") == "" {
				r.Header.Set("Authorization", "Bearer "+tok)
			}
			q.Del("access_token")
			r.URL.RawQuery = q.Encode()
			r.RequestURI = r.URL.RequestURI()
		}
		next.ServeHTTP(w, r)
	})
}
