package httpserve

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// trackedConn counts a connection-based session's requests in flight (read
// and not yet answered), for the transports whose POST or frame does not
// last as long as the request it carries (HTTP+SSE, WebSocket): the
// per-session limit (MaxInFlight) and the shutdown's wait both need them.
type trackedConn struct {
	mcp.Connection
	f   *front
	id  string // the session's ID (newConnID), under which its token is kept
	max int    // requests in flight past which a request is answered with an error; 0: no limit here

	mu   sync.Mutex // guards open
	open map[jsonrpc.ID]struct{}
}

func newTrackedConn(c mcp.Connection, f *front, id string) *trackedConn {
	return &trackedConn{Connection: c, f: f, id: id, open: make(map[jsonrpc.ID]struct{})}
}

func (c *trackedConn) SessionID() string { return c.id }

// Read returns the next message, counting a request in. Past max requests
// in flight, a request gets an error answer instead, the one a Streamable
// HTTP client gets with its 429, and the next message is read: a response
// from the client (to roots/list, say) may be what a request in flight
// waits for, so the connection must not stop reading.
func (c *trackedConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	for {
		msg, err := c.Connection.Read(ctx)
		req, ok := msg.(*jsonrpc.Request)
		if !ok || !req.IsCall() {
			return msg, err
		}
		c.mu.Lock()
		_, dup := c.open[req.ID]
		over := c.max > 0 && len(c.open) >= c.max
		if !dup && !over {
			c.open[req.ID] = struct{}{}
			c.f.startWork()
		}
		c.mu.Unlock()
		if !over {
			return msg, err
		}
		if err := c.Connection.Write(ctx, tooManyAnswer(req.ID, c.max)); err != nil {
			return nil, err
		}
	}
}

// Write counts an answer out before writing it, since the client may send
// its next request as soon as it reads it; the shutdown's wait ends after.
func (c *trackedConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	res, ok := msg.(*jsonrpc.Response)
	if ok {
		c.mu.Lock()
		_, ok = c.open[res.ID]
		delete(c.open, res.ID)
		c.mu.Unlock()
	}
	err := c.Connection.Write(ctx, msg)
	if ok {
		c.f.endWork()
	}
	return err
}

// Close ends the work of the requests left unanswered: nobody will read
// their answers.
func (c *trackedConn) Close() error {
	c.mu.Lock()
	for id := range c.open {
		delete(c.open, id)
		c.f.endWork()
	}
	c.mu.Unlock()
	return c.Connection.Close()
}

// inFlight returns the requests read and not yet answered.
func (c *trackedConn) inFlight() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.open)
}

// userOf names who a request is from, as the token check found it: a
// session is its creator's, and another user's requests do not reach it.
func userOf(r interface{ Context() context.Context }) string {
	if ti := auth.TokenInfoFromContext(r.Context()); ti != nil {
		return ti.UserID
	}
	return ""
}

// tooManyAnswer is the error answer to a request past max in flight: the
// body of Streamable HTTP's 429.
func tooManyAnswer(id jsonrpc.ID, max int) *jsonrpc.Response {
	b := httpErrorBody(http.StatusTooManyRequests, fmt.Sprintf("Too Many Requests: more than %d requests in flight for this session (--http-max-in-flight)", max))
	data, _ := json.Marshal(b.Error.Data)
	return &jsonrpc.Response{ID: id, Error: &jsonrpc.Error{Code: int64(b.Error.Code), Message: b.Error.Message, Data: data}}
}
