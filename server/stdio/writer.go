package stdio

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"unicode/utf8"

	"github.com/grove-mcp/grove/internal/panics"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxErrorMessage bounds the message of an error answer. The SDK quotes a
// request's whole params in some (an unmarshaling error), which would send
// a client back up to twice the 16 MiB it sent.
const maxErrorMessage = 4 << 10

// unencodable is the message of the error that replaces an answer grove
// cannot encode.
const unencodable = "internal error: the answer could not be encoded; grove logged it and the session goes on"

// Write writes one of the SDK's messages. It fails only when stdout does:
// any other failure costs one message, never the session (the SDK ends the
// session on a failed write).
func (c *wireConn) Write(ctx context.Context, msg jsonrpc.Message) (err error) {
	var perr error
	defer func() {
		var p *panics.Error
		if errors.As(perr, &p) { // a bug of ours: the message is lost, not the session
			c.log.Error("writing a message panicked", "panic", p.Value, "stack", string(p.Stack))
			err = nil
		}
	}()
	defer panics.Catch(&perr)
	if err := ctx.Err(); err != nil {
		return err
	}
	select {
	case <-c.closed:
		return errClosed
	default:
	}
	switch m := msg.(type) {
	case *jsonrpc.Response:
		return c.writeResponse(m)
	case *jsonrpc.Request:
		return c.writeRequest(m)
	}
	return nil
}

// writeResponse writes the answer to a call with the client's id, into its
// batch if it came in one; the answer to a cancelled call is dropped.
func (c *wireConn) writeResponse(resp *jsonrpc.Response) error {
	n, ok := syntheticOf(resp.ID)
	var cl *call
	if ok {
		cl = c.forget(n)
	}
	if cl == nil { // not a call the reader registered: none exists
		data, err := jsonrpc.EncodeMessage(boundedError(resp))
		if err != nil {
			c.log.Error("dropped an answer that could not be encoded", "err", err)
			return nil
		}
		return c.out.writeLine(data)
	}
	if cl.method == "initialize" && resp.Error == nil {
		var r struct {
			ProtocolVersion string `json:"protocolVersion"`
		}
		if json.Unmarshal(resp.Result, &r) == nil {
			c.mu.Lock()
			c.version = r.ProtocolVersion
			c.mu.Unlock()
		}
	}
	line := c.encodeResponse(resp, n, cl)
	if cl.cancelled {
		c.log.Debug("dropped the answer to a cancelled request", "method", cl.method, "id", string(cl.raw))
		c.out.c.release(line)
		line = nil
	}
	if cl.batch != nil {
		return c.answered(cl.batch, cl, line)
	}
	if line == nil {
		return nil
	}
	return c.out.writeLine(line)
}

// encodeResponse returns the answer to cl as the client will read it. One
// that cannot be encoded (or whose encoding panics) becomes an internal
// error with the same id.
func (c *wireConn) encodeResponse(resp *jsonrpc.Response, n int64, cl *call) (line []byte) {
	var perr error
	defer func() {
		var p *panics.Error
		if errors.As(perr, &p) {
			c.log.Error("encoding an answer panicked", "method", cl.method, "panic", p.Value, "stack", string(p.Stack))
			line = errorLine(cl.raw, jsonrpc.CodeInternalError, unencodable)
		}
	}()
	defer panics.Catch(&perr)
	resp = boundedError(resp)
	if cl.method == "subscriptions/listen" && bytes.Contains(resp.Result, subscriptionKey) {
		cp := *resp
		cp.Result = setField(resp.Result, []string{"_meta"}, mcp.MetaKeySubscriptionID, cl.raw)
		resp = &cp
	}
	data, err := jsonrpc.EncodeMessage(resp)
	if err != nil {
		c.log.Error("an answer could not be encoded", "method", cl.method, "err", err)
		return errorLine(cl.raw, jsonrpc.CodeInternalError, unencodable)
	}
	return withClientID(data, n, cl.raw)
}

// writeRequest writes a notification or a call of the SDK's, with the
// client's ids in the subscription ids and progress tokens it carries. One
// that cannot be encoded is dropped and logged.
func (c *wireConn) writeRequest(req *jsonrpc.Request) error {
	if !req.IsCall() {
		req = c.clientIDs(req)
	}
	data, err := jsonrpc.EncodeMessage(req)
	if err != nil {
		c.log.Error("dropped a message that could not be encoded", "method", req.Method, "err", err)
		return nil
	}
	return c.out.writeLine(data)
}

// clientIDs returns the notification with the synthetic ids and progress
// tokens in its params replaced by the client's.
func (c *wireConn) clientIDs(req *jsonrpc.Request) *jsonrpc.Request {
	params := req.Params
	if bytes.Contains(params, subscriptionKey) {
		key := mcp.MetaKeySubscriptionID
		if n, err := strconv.ParseInt(string(field(params, "_meta", key)), 10, 64); err == nil {
			c.mu.Lock()
			cl := c.calls[n]
			c.mu.Unlock()
			if cl != nil {
				params = setField(params, []string{"_meta"}, key, cl.raw)
			}
		}
	}
	if bytes.Contains(params, quotedTokenPrefix) {
		var token string
		if json.Unmarshal(field(params, "progressToken"), &token) == nil {
			c.mu.Lock()
			raw := c.tokens[token]
			c.mu.Unlock()
			if raw != nil {
				params = setField(params, nil, "progressToken", raw)
			}
		}
	}
	if len(params) == len(req.Params) && bytes.Equal(params, req.Params) {
		return req
	}
	cp := *req
	cp.Params = params
	return &cp
}

// boundedError returns resp with its error message cut to maxErrorMessage.
// The error is given as the SDK would send it: a *jsonrpc.Error as it is,
// any other error as its text with the code of a *jsonrpc.Error it wraps.
func boundedError(resp *jsonrpc.Response) *jsonrpc.Response {
	if resp.Error == nil {
		return resp
	}
	var wire *jsonrpc.Error
	if direct, ok := resp.Error.(*jsonrpc.Error); ok {
		wire = direct
	} else {
		wire = &jsonrpc.Error{Message: resp.Error.Error()}
		var wrapped *jsonrpc.Error
		if errors.As(resp.Error, &wrapped) {
			wire.Code = wrapped.Code
		}
	}
	if len(wire.Message) <= maxErrorMessage {
		if wire == resp.Error {
			return resp
		}
	} else {
		cut := *wire
		cut.Message = truncateUTF8(wire.Message, maxErrorMessage) + "… (cut)"
		wire = &cut
	}
	cp := *resp
	cp.Error = wire
	return &cp
}

// truncateUTF8 returns at most n bytes of s, not splitting a character.
func truncateUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
