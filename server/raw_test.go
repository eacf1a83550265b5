package server

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/grove-mcp/grove/internal/servertest"
	"github.com/grove-mcp/grove/roots"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// rawClient speaks JSON-RPC to a server message by message, over the SDK's
// in-memory pipe (JSON on the wire), for tests that must control exactly what
// the client sends and see every message the server writes.
type rawClient struct {
	t    *testing.T
	conn mcp.Connection
	msgs chan jsonrpc.Message // closed when the connection ends
}

func connectRaw(t *testing.T, cfg Config) (*rawClient, *Server) {
	t.Helper()
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	st, ct := mcp.NewInMemoryTransports()
	ss, err := s.MCP().Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	conn, err := ct.Connect(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	c := &rawClient{t: t, conn: conn, msgs: make(chan jsonrpc.Message, 100)}
	go func() {
		defer close(c.msgs)
		for {
			msg, err := conn.Read(context.Background())
			if err != nil {
				return
			}
			c.msgs <- msg
		}
	}()
	t.Cleanup(func() { conn.Close() })
	return c, s
}

// send writes one message given as JSON text.
func (c *rawClient) send(text string) {
	c.t.Helper()
	msg, err := jsonrpc.DecodeMessage([]byte(text))
	if err != nil {
		c.t.Fatalf("test message %s: %v", text, err)
	}
	if err := c.conn.Write(context.Background(), msg); err != nil {
		c.t.Fatalf("writing %s: %v", text, err)
	}
}

// next returns the next message the server wrote.
func (c *rawClient) next() jsonrpc.Message {
	c.t.Helper()
	select {
	case msg, ok := <-c.msgs:
		if !ok {
			c.t.Fatal("the server ended the connection")
		}
		return msg
	case <-time.After(servertest.WaitLimit):
		c.t.Fatalf("no message from the server within %v", servertest.WaitLimit)
		return nil
	}
}

// await returns the response to the request with id, handing every other
// message the server writes on the way to other (which may be nil).
func (c *rawClient) await(id int64, other func(jsonrpc.Message)) *jsonrpc.Response {
	c.t.Helper()
	for {
		msg := c.next()
		if r, ok := msg.(*jsonrpc.Response); ok && r.ID.Raw() == id {
			return r
		}
		if other != nil {
			other(msg)
		}
	}
}

// call sends a request and returns its response; the request's id must be id.
func (c *rawClient) call(id int64, text string) *jsonrpc.Response {
	c.t.Helper()
	c.send(text)
	return c.await(id, nil)
}

// errorOnWire is a response's error as it was on the wire.
func errorOnWire(t *testing.T, r *jsonrpc.Response) string {
	t.Helper()
	if r.Error == nil {
		t.Fatalf("response %v: no error (result %s)", r.ID.Raw(), r.Result)
	}
	b, err := json.Marshal(r.Error)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// initializeLegacy runs a legacy handshake for a client with the given
// capabilities (JSON), up to notifications/initialized if initialized.
func (c *rawClient) initializeLegacy(caps string, initialized bool) {
	c.t.Helper()
	r := c.call(1, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25",`+
		`"capabilities":`+caps+`,"clientInfo":{"name":"raw","version":"1"}}}`)
	if r.Error != nil {
		c.t.Fatalf("initialize: %v", r.Error)
	}
	if initialized {
		c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	}
}

// request is the JSON text of a request; params are marshaled, so strings
// with control characters go out as JSON escapes. meta, when not empty, is
// added to the params as _meta.
func request(id int64, method string, params map[string]any, meta map[string]any) string {
	if len(meta) > 0 {
		params["_meta"] = meta
	}
	b, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	if err != nil {
		panic(err)
	}
	return string(b)
}

// connectTo connects a client of the given era to s, with clientRoots.
func connectTo(t *testing.T, s *Server, era string, clientRoots ...string) *mcp.ClientSession {
	t.Helper()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := s.MCP().Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	for _, r := range clientRoots {
		client.AddRoots(&mcp.Root{URI: roots.URI(r)})
	}
	cs, err := client.Connect(context.Background(), ct, &mcp.ClientSessionOptions{ProtocolVersion: era})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}
