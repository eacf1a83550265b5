package stdio

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"strconv"
	"sync"

	"github.com/grove-mcp/grove/internal/panics"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// grove serves stdio through a connection of its own rather than the SDK's
// IOTransport, which ends the session on a bad line, a batch of
// notifications ("duplicate message ID") or an answer it cannot encode, and
// passes ids through float64. The reader (this file and lineguard.go)
// answers what is not a valid request itself, takes batches apart and gives
// each request a synthetic id; the writer restores the client's ids, puts
// batch answers back together, drops the answers to cancelled requests, and
// turns an answer that cannot be encoded into an internal error.

// guardedStdio is grove's stdio transport. Its writer puts the texts c holds
// into their answers, and arms c.
func guardedStdio(in io.Reader, out io.Writer, c *carrier, log *slog.Logger) mcp.Transport {
	c.armed.Store(true)
	return &wireTransport{in: in, out: &lockedWriter{w: out, c: c}, log: log}
}

type wireTransport struct {
	in  io.Reader
	out *lockedWriter
	log *slog.Logger
}

func (t *wireTransport) Connect(context.Context) (mcp.Connection, error) {
	c := &wireConn{
		out:      t.out,
		log:      t.log,
		incoming: make(chan readResult),
		closed:   make(chan struct{}),
		calls:    make(map[int64]*call),
		byKey:    make(map[string][]int64),
		tokens:   make(map[string]json.RawMessage),
	}
	go c.readLoop(t.in)
	return c, nil
}

type readResult struct {
	msg jsonrpc.Message
	err error
}

// wireConn is one stdio session's connection.
type wireConn struct {
	out      *lockedWriter
	log      *slog.Logger
	incoming chan readResult // from readLoop; an error ends it
	closed   chan struct{}
	close    sync.Once

	mu      sync.Mutex                 // guards the fields below
	last    int64                      // the last synthetic id given
	calls   map[int64]*call            // requests read and not yet answered, by synthetic id
	byKey   map[string][]int64         // the same, by the client's id (idKey)
	tokens  map[string]json.RawMessage // swapped progress tokens: the client's, by grove's
	version string                     // negotiated by initialize; "" until answered
}

// call is a request the SDK is handling.
type call struct {
	raw       json.RawMessage // the client's id, as sent
	key       string          // idKey(raw)
	method    string
	token     string // the swapped progress token, if any
	batch     *batch // the batch it came in, if any
	cancelled bool   // the client cancelled it: no answer
}

func (c *wireConn) SessionID() string { return "" }

func (c *wireConn) Close() error {
	c.close.Do(func() { close(c.closed) })
	return nil
}

func (c *wireConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case r := <-c.incoming:
		return r.msg, r.err
	case <-c.closed:
		return nil, io.EOF
	}
}

var errClosed = errors.New("connection closed")

// deliver hands msg to the SDK's Read.
func (c *wireConn) deliver(r readResult) error {
	select {
	case c.incoming <- r:
		return nil
	case <-c.closed:
		return errClosed
	}
}

// readLoop reads stdin until it ends, and then reports the end to Read. A
// panic ends the session with an error rather than the process. Once the
// connection is closed it returns at its next line: a read of stdin cannot
// be interrupted (the SDK's reader has the same limit).
func (c *wireConn) readLoop(in io.Reader) {
	var err error
	defer func() { _ = c.deliver(readResult{err: err}) }()
	defer panics.Catch(&err)
	err = c.readLines(bufio.NewReaderSize(in, 64<<10))
}

// readLines hands the SDK the messages of each line and answers the lines
// that hold none, until the input ends (io.EOF), the connection closes or a
// write fails.
func (c *wireConn) readLines(r *bufio.Reader) error {
	for {
		line, head, tooLong, err := readLine(r)
		var lineErr error
		switch {
		case tooLong:
			lineErr = c.out.writeLine(errorLineData(leadingID(head), jsonrpc.CodeInvalidRequest, "message too large",
				json.RawMessage(`{"maxBytes":`+strconv.Itoa(maxLine)+`}`)))
		case len(bytes.TrimSpace(line)) > 0:
			lineErr = c.line(line)
		}
		if lineErr != nil {
			return lineErr
		}
		if err != nil {
			return err // io.EOF at the end of input
		}
	}
}

// line handles one non-blank line. A panic costs the line an internal
// error, logged with its stack.
func (c *wireConn) line(line []byte) (err error) {
	var perr error
	defer func() {
		var p *panics.Error
		if errors.As(perr, &p) {
			c.log.Error("reading a line panicked", "panic", p.Value, "stack", string(p.Stack))
			err = c.out.writeLine(errorLine(nil, jsonrpc.CodeInternalError, "internal error reading this message: grove logged it; the session goes on"))
		}
	}()
	defer panics.Catch(&perr)
	line = bytes.TrimSpace(line)
	if line[0] == '[' {
		if !json.Valid(line) {
			return c.out.writeLine(parseError())
		}
		return c.batch(line)
	}
	msgs, answer := c.accept(line, nil)
	if answer != nil {
		return c.out.writeLine(answer)
	}
	for _, m := range msgs {
		if err := c.deliver(readResult{msg: m}); err != nil {
			return err
		}
	}
	return nil
}

// accept checks one message. It returns what the SDK should read (nothing,
// the message with a synthetic id, or cancellations) or the error answer.
// A request is registered as a call of b.
func (c *wireConn) accept(raw []byte, b *batch) (msgs []jsonrpc.Message, answer []byte) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		if err != nil && !json.Valid(raw) { // the line is not JSON (elements of a batch are)
			return nil, parseError()
		}
		return nil, invalidRequest(nil)
	}
	id, hasID := m["id"]
	var version, method string
	if json.Unmarshal(m["jsonrpc"], &version) != nil || version != "2.0" {
		return nil, invalidRequest(usableID(id))
	}
	if rawMethod, ok := m["method"]; ok {
		if !isString(rawMethod) || json.Unmarshal(rawMethod, &method) != nil {
			return nil, invalidRequest(usableID(id))
		}
	} else if _, ok := m["result"]; ok {
		return c.response(raw, id), nil
	} else if _, ok := m["error"]; ok {
		return c.response(raw, id), nil
	} else {
		return nil, invalidRequest(usableID(id))
	}
	params := m["params"]
	switch {
	case !hasID && method == "notifications/cancelled":
		return c.cancel(params), nil
	case !hasID:
		return []jsonrpc.Message{&jsonrpc.Request{Method: method, Params: params}}, nil
	case usableID(id) == nil:
		return nil, invalidRequest(nil) // "id": null, 1.5, 1e3, true, {...}
	}
	if why := invalidParams(method, params); why != "" {
		return nil, errorLine(id, jsonrpc.CodeInvalidParams, "Invalid params: "+why)
	}
	return []jsonrpc.Message{c.register(id, method, params, b)}, nil
}

// response passes on a client's answer to one of the SDK's requests. One
// without a usable id answers nothing grove asked, and is dropped.
func (c *wireConn) response(raw []byte, id json.RawMessage) []jsonrpc.Message {
	msg, err := jsonrpc.DecodeMessage(raw)
	if usableID(id) == nil || err != nil {
		c.log.Debug("dropped a response without a usable id", "err", err)
		return nil
	}
	return []jsonrpc.Message{msg}
}

// register records a request and returns it as the SDK will read it.
func (c *wireConn) register(id json.RawMessage, method string, params json.RawMessage, b *batch) *jsonrpc.Request {
	key, _ := idKey(id)
	cl := &call{raw: id, key: key, method: method, batch: b}
	token := progressToken(params)
	n := c.add(cl, token, b)
	if token != nil {
		quoted, _ := json.Marshal(cl.token)
		params = setField(params, []string{"_meta"}, "progressToken", quoted)
	}
	return &jsonrpc.Request{ID: syntheticID(n), Method: method, Params: params}
}

// add registers cl, with its swapped progress token if the client's was
// token, as a call of b (if any), and returns its synthetic id.
func (c *wireConn) add(cl *call, token json.RawMessage, b *batch) int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.last++
	n := c.last
	c.calls[n] = cl
	c.byKey[cl.key] = append(c.byKey[cl.key], n)
	if token != nil {
		cl.token = tokenPrefix + strconv.FormatInt(n, 10)
		c.tokens[cl.token] = token
	}
	if b != nil {
		b.pending++
	}
	return n
}

// forget removes the call n and returns it, or nil.
func (c *wireConn) forget(n int64) *call {
	c.mu.Lock()
	defer c.mu.Unlock()
	cl := c.calls[n]
	if cl == nil {
		return nil
	}
	delete(c.calls, n)
	ids := c.byKey[cl.key]
	for i, x := range ids {
		if x == n {
			ids = append(ids[:i], ids[i+1:]...)
			break
		}
	}
	if len(ids) == 0 {
		delete(c.byKey, cl.key)
	} else {
		c.byKey[cl.key] = ids
	}
	if cl.token != "" {
		delete(c.tokens, cl.token)
	}
	return cl
}
