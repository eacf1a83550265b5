package stdio

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// JSON-RPC batches (a line holding an array of messages) belong to MCP up
// to 2025-03-26; 2025-06-18 removed them. The SDK takes a batch apart but
// keys its answers by id, so a batch of two notifications ends the session
// ("duplicate message ID {<nil>}") and [request, notification] loses the
// request's answer. The reader takes batches apart itself: under 2025-03-26
// or older each request runs, and the writer sends their answers as one
// array once the last is made (no line at all for a batch of notifications);
// otherwise the batch gets one invalid-request error. Either way the session
// goes on.

const (
	// batchVersion is the last protocol version with batches.
	batchVersion = "2025-03-26"
	// maxBatch bounds the messages in one batch: each may start a handler,
	// and each gets an answer held until the batch is done.
	maxBatch = 256
	// maxBatchBytes bounds the answers held for one batch (carried texts
	// counted); an answer past it is replaced by an error saying so.
	maxBatchBytes = 64 << 20
)

// batch is the state of one batch line. Its fields are guarded by the
// wireConn's mu.
type batch struct {
	pending int      // requests not yet answered
	size    int      // bytes held in answers
	answers [][]byte // encoded answers, in the order they were made
}

// batch handles a line holding a JSON array.
func (c *wireConn) batch(line []byte) error {
	elems, why := splitBatch(line)
	if why == "" {
		why = c.batchRefused(line)
	}
	if why != "" {
		return c.out.writeLine(errorLine(nil, jsonrpc.CodeInvalidRequest, why))
	}
	b := &batch{}
	var msgs []jsonrpc.Message
	for _, e := range elems {
		m, answer := c.accept(e, b)
		msgs = append(msgs, m...)
		if answer != nil {
			c.mu.Lock()
			b.answers = append(b.answers, answer)
			c.mu.Unlock()
		}
	}
	// Every request is registered before the SDK sees the first: the batch
	// cannot be done before it is read.
	c.mu.Lock()
	done := b.pending == 0
	c.mu.Unlock()
	if done {
		if err := c.writeBatch(b); err != nil {
			return err
		}
	}
	for _, m := range msgs {
		if err := c.deliver(readResult{msg: m}); err != nil {
			return err
		}
	}
	return nil
}

// splitBatch returns the elements of a JSON array, or why it is not a batch
// grove takes. It reads no further than maxBatch elements.
func splitBatch(line []byte) (elems []json.RawMessage, why string) {
	dec := json.NewDecoder(bytes.NewReader(line))
	if _, err := dec.Token(); err != nil { // the '['; line is valid JSON
		return nil, "Invalid Request"
	}
	for dec.More() {
		if len(elems) == maxBatch {
			return nil, fmt.Sprintf("Invalid Request: a batch holds at most %d messages", maxBatch)
		}
		var e json.RawMessage
		if err := dec.Decode(&e); err != nil {
			return nil, "Invalid Request"
		}
		elems = append(elems, e)
	}
	if len(elems) == 0 {
		return nil, "Invalid Request: empty batch"
	}
	return elems, ""
}

// batchRefused returns why this session takes no batch, or "".
func (c *wireConn) batchRefused(line []byte) string {
	c.mu.Lock()
	v := c.version
	c.mu.Unlock()
	switch {
	case v == "":
		return "Invalid Request: a batch needs a session initialized with protocol version " + batchVersion + " or older"
	case v > batchVersion:
		return "Invalid Request: JSON-RPC batches were removed from MCP in 2025-06-18; this session speaks " + v
	case bytes.Contains(line, []byte(mcp.MetaKeyProtocolVersion)):
		return "Invalid Request: the per-request protocol has no JSON-RPC batches"
	}
	return ""
}

// answered records the answer (nil: none) to one call of b, and writes b's
// answers when it was the last. An answer that would take the batch past
// maxBatchBytes is replaced by an error.
func (c *wireConn) answered(b *batch, cl *call, answer []byte) error {
	size := 0
	if answer != nil {
		size = len(answer) + c.out.c.heldSize(answer)
	}
	c.mu.Lock()
	over := b.size+size > maxBatchBytes
	if !over {
		b.size += size
	}
	c.mu.Unlock()
	if over {
		c.out.c.release(answer)
		answer = errorLine(cl.raw, jsonrpc.CodeInternalError, fmt.Sprintf(
			"answer too large for a batch (a batch's answers are held until the last is made, %d MiB at most): send this request alone",
			maxBatchBytes>>20))
	}
	c.mu.Lock()
	if answer != nil {
		b.answers = append(b.answers, answer)
	}
	b.pending--
	done := b.pending == 0
	c.mu.Unlock()
	if !done {
		return nil
	}
	return c.writeBatch(b)
}

// writeBatch writes b's answers as one array; nothing when it has none.
func (c *wireConn) writeBatch(b *batch) error {
	c.mu.Lock()
	answers := b.answers
	b.answers = nil
	c.mu.Unlock()
	if len(answers) == 0 {
		return nil
	}
	line := append([]byte{'['}, bytes.Join(answers, []byte{','})...)
	return c.out.writeLine(append(line, ']'))
}
