package server

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
// client's bug must not cost the user their session.

// maxLine bounds one inbound message, as the SDK's own reader does.
const maxLine = mcp.DefaultMaxLineLength

// guardedStdio is the stdio transport behind a line guard. Its writer puts
// the texts c holds into their answers, and arms c.
func guardedStdio(in io.Reader, out io.Writer, c *carrier) mcp.Transport {
	w := &lockedWriter{w: out, c: c}
	c.armed.Store(true)
	return &mcp.IOTransport{Reader: guardLines(in, w), Writer: w}
}

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

func (l *lockedWriter) Close() error { return nil }

// guardLines returns a reader of the well-formed lines of in; it answers the
// others on w itself.
func guardLines(in io.Reader, w io.Writer) io.ReadCloser {
	pr, pw := io.Pipe()
	go func() {
		pw.CloseWithError(copyLines(bufio.NewReaderSize(in, 64<<10), pw, w))
	}()
	return pr
}

// copyLines copies good lines to dst and answers bad ones on errs, until the
// input ends (nil) or a write fails.
func copyLines(src *bufio.Reader, dst, errs io.Writer) error {
	for {
		line, tooLong, err := readLine(src)
		if len(bytes.TrimSpace(line)) > 0 || tooLong {
			if answer := check(line, tooLong); answer != nil {
				if _, werr := errs.Write(answer); werr != nil {
					return werr
				}
			} else if _, werr := dst.Write(append(line, '\n')); werr != nil {
				return werr
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// readLine reads one line without its newline; past maxLine it discards the
// rest of the line and reports it too long.
func readLine(r *bufio.Reader) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := r.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > maxLine {
				line, tooLong = nil, true
			} else {
				line = append(line, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return bytes.TrimRight(line, "\r\n"), tooLong, err
	}
}

// check returns the error answer for a line that is not a JSON-RPC message
// (or a batch of them), or nil for a good one.
func check(line []byte, tooLong bool) []byte {
	switch {
	case tooLong:
		return errorLine(nil, jsonrpc.CodeInvalidRequest, "message too large")
	case !json.Valid(line):
		return errorLine(nil, jsonrpc.CodeParseError, "Parse error")
	}
	msgs := []json.RawMessage{line}
	if trimmed := bytes.TrimSpace(line); trimmed[0] == '[' {
		var batch []json.RawMessage // fresh: decoding into msgs would overwrite line
		if json.Unmarshal(trimmed, &batch) != nil || len(batch) == 0 {
			return errorLine(nil, jsonrpc.CodeInvalidRequest, "Invalid Request")
		}
		msgs = batch
	}
	for _, m := range msgs {
		if _, err := jsonrpc.DecodeMessage(m); err != nil {
			return errorLine(requestID(m), jsonrpc.CodeInvalidRequest, "Invalid Request")
		}
	}
	return nil
}

// requestID returns the id of a malformed request when it has a usable one.
func requestID(m json.RawMessage) json.RawMessage {
	var v struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(m, &v) != nil || len(v.ID) == 0 {
		return nil
	}
	switch v.ID[0] {
	case '"', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return v.ID
	}
	return nil
}

// wireError is a JSON-RPC error response.
type wireError struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Error   struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

func errorLine(id json.RawMessage, code int64, msg string) []byte {
	if id == nil {
		id = json.RawMessage("null")
	}
	e := wireError{JSONRPC: "2.0", ID: id}
	e.Error.Code, e.Error.Message = code, msg
	b, _ := json.Marshal(e)
	return append(b, '\n')
}
