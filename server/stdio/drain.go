package stdio

import (
	"context"
	"errors"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// drainTimeout bounds how long grove, at the end of its input, waits for the
// answers to requests it already read. A hung handler must not keep the
// process alive.
const drainTimeout = 10 * time.Second

// drainTransport answers what was asked before it reports the end of input,
// so that a client that writes its requests and closes stdin still gets every
// answer. Without it the SDK closes the connection with calls in flight.
type drainTransport struct{ mcp.Transport }

func (t drainTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &drainConn{Connection: c, open: make(map[jsonrpc.ID]struct{})}, nil
}

type drainConn struct {
	mcp.Connection

	mu   sync.Mutex              // guards the fields below
	open map[jsonrpc.ID]struct{} // calls read and not yet answered
	idle chan struct{}           // closed when open empties; nil while open is empty
}

func (c *drainConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if err != nil {
		c.waitIdle(drainTimeout)
		return nil, err
	}
	// A subscriptions/listen stream lasts until the client leaves: not waited for.
	if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() && req.Method != "subscriptions/listen" {
		c.mu.Lock()
		if len(c.open) == 0 {
			c.idle = make(chan struct{})
		}
		c.open[req.ID] = struct{}{}
		c.mu.Unlock()
	}
	return msg, nil
}

func (c *drainConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	msg = withCode(msg)
	err := c.Connection.Write(ctx, msg)
	if resp, ok := msg.(*jsonrpc.Response); ok {
		c.mu.Lock()
		if _, ok := c.open[resp.ID]; ok {
			delete(c.open, resp.ID)
			if len(c.open) == 0 {
				close(c.idle)
				c.idle = nil
			}
		}
		c.mu.Unlock()
	}
	return err
}

func (c *drainConn) waitIdle(limit time.Duration) {
	c.mu.Lock()
	idle := c.idle
	c.mu.Unlock()
	if idle == nil {
		return
	}
	t := time.NewTimer(limit)
	defer t.Stop()
	select {
	case <-idle:
	case <-t.C:
	}
}

// withCode gives an error answer without a JSON-RPC code one: the SDK sends
// its plain errors with code 0, which no client can act on. A request before
// initialize is an invalid request (-32600); anything else is an internal
// error (-32603).
func withCode(msg jsonrpc.Message) jsonrpc.Message {
	resp, ok := msg.(*jsonrpc.Response)
	if !ok || resp.Error == nil {
		return msg
	}
	var rpcErr *jsonrpc.Error
	if errors.As(resp.Error, &rpcErr) && rpcErr.Code != 0 {
		return msg
	}
	code := int64(jsonrpc.CodeInternalError)
	if strings.Contains(resp.Error.Error(), "invalid during session initialization") {
		code = jsonrpc.CodeInvalidRequest
	}
	coded := *resp
	coded.Error = &jsonrpc.Error{Code: code, Message: resp.Error.Error()}
	return &coded
}
