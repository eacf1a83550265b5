package stdio

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The SDK ends a stdio session at the first line that is not a JSON-RPC
// message, without an answer. JSON-RPC wants a parse error (-32700) or an
// invalid request (-32600) for such a line, and the session to go on: a
// client's bug must not cost the user their session. grove reads stdin
// itself (wire.go); this file reads its lines and builds the error answers.

const (
	// maxLine bounds one inbound message, as the SDK's own reader does. A
	// longer line is answered "message too large" and skipped.
	maxLine = mcp.DefaultMaxLineLength
	// idScanBytes is how much of a too-long line is kept to find its id:
	// clients write "id" before "params", where a large payload lives.
	idScanBytes = 64 << 10
)

// lockedWriter keeps the guard's answers and the SDK's messages whole: each
// is written under one lock, the carried texts swapped in.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
	c  *carrier
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := l.c.write(l.w, p); err != nil {
		return 0, err
	}
	return len(p), nil
}

// writeLine writes one message and its newline.
func (l *lockedWriter) writeLine(msg []byte) error {
	_, err := l.Write(append(msg, '\n'))
	return err
}

// readLine reads one line without its newline. Past maxLine it discards the
// rest of the line, reports it too long, and returns the line's first
// idScanBytes as head.
func readLine(r *bufio.Reader) (line, head []byte, tooLong bool, err error) {
	for {
		chunk, err := r.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > maxLine {
				head = append(line, chunk...)[:min(idScanBytes, len(line)+len(chunk))]
				line, tooLong = nil, true
			} else {
				line = append(line, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return bytes.TrimRight(line, "\r\n"), head, tooLong, err
	}
}

// leadingID returns the id of the message whose first bytes are head, when
// "id" is one of its top-level keys before head ends and its value is a
// usable id. The work is bounded by len(head).
func leadingID(head []byte) json.RawMessage {
	dec := json.NewDecoder(bytes.NewReader(head))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil
	}
	for dec.More() {
		tok, err := dec.Token()
		key, ok := tok.(string)
		if err != nil || !ok {
			return nil
		}
		var value json.RawMessage
		if err := dec.Decode(&value); err != nil {
			return nil
		}
		if key == "id" {
			// A number cut by the end of head may go on past it: 6 of 60.
			if rest := bytes.TrimLeft(head[dec.InputOffset():], " \t\r\n"); len(rest) == 0 {
				return nil
			}
			return usableID(value)
		}
	}
	return nil
}

// wireError is a JSON-RPC error response.
type wireError struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Error   struct {
		Code    int64           `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data,omitempty"`
	} `json:"error"`
}

// errorLine returns the error response with the given id (nil: null),
// without a newline.
func errorLine(id json.RawMessage, code int64, msg string) []byte {
	return errorLineData(id, code, msg, nil)
}

// errorLineData is errorLine with data, which must be JSON.
func errorLineData(id json.RawMessage, code int64, msg string, data json.RawMessage) []byte {
	if id == nil {
		id = json.RawMessage("null")
	}
	e := wireError{JSONRPC: "2.0", ID: id}
	e.Error.Code, e.Error.Message, e.Error.Data = code, msg, data
	b, err := json.Marshal(e)
	switch {
	case err != nil && data != nil: // not JSON: a bug of ours, still answered
		return errorLineData(id, code, msg, nil)
	case err != nil:
		return errorLine(json.RawMessage("null"), code, msg)
	}
	return b
}

// parseError is the answer to a line that is not JSON.
func parseError() []byte { return errorLine(nil, jsonrpc.CodeParseError, "Parse error") }

// invalidRequest is the answer to a message that is not a valid request.
func invalidRequest(id json.RawMessage) []byte {
	return errorLine(id, jsonrpc.CodeInvalidRequest, "Invalid Request")
}
