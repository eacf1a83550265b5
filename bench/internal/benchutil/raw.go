package benchutil

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Raw is a JSON-RPC client on a server's stdio that does nothing between
// writing a request and reading the last byte of its answer: the request is
// encoded before the clock starts, and the answer is decoded after it stops.
// Its timings are the server's latency as any client sees it through a pipe,
// without the go-sdk client's decoding (which, for a 1 MiB answer, takes
// longer than the servers being compared).
//
// It speaks the legacy handshake (initialize, then notifications/initialized)
// and announces no client capabilities, so servers use their command-line
// roots and never ask the client anything.
type Raw struct {
	Cmd     *exec.Cmd
	Startup time.Duration // from just before the spawn to the initialize answer

	in         io.WriteCloser
	out        *bufio.Reader
	line       []byte // the last line read; reused
	nextID     int
	negotiated string
}

// StartRaw spawns argv and runs the initialize handshake at protocol.
func StartRaw(ctx context.Context, argv []string, protocol string, stderr io.Writer) (*Raw, error) {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Stderr = stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	c := &Raw{Cmd: cmd, in: in, out: bufio.NewReaderSize(out, 1<<20)}
	params := map[string]any{
		"protocolVersion": protocol,
		"capabilities":    map[string]any{},
		"clientInfo":      map[string]any{"name": "grove-bench", "version": "0"},
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", argv[0], err)
	}
	var res struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	if _, err := c.Call("initialize", params, &res); err != nil {
		_ = c.kill()
		return nil, fmt.Errorf("initializing %s: %w", argv[0], err)
	}
	c.Startup = time.Since(start)
	c.negotiated = res.ProtocolVersion
	if err := c.notify("notifications/initialized"); err != nil {
		_ = c.kill()
		return nil, err
	}
	return c, nil
}

// rpcError is a JSON-RPC error answer.
type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (e *rpcError) Error() string { return fmt.Sprintf("JSON-RPC error %d: %s", e.Code, e.Message) }

// envelope is the part of a message Call looks at once the clock has stopped.
type envelope struct {
	ID     *int            `json:"id"`
	Method string          `json:"method"`
	Result json.RawMessage `json:"result"`
	Error  *rpcError       `json:"error"`
}

// Call sends one request and decodes its result into result (if not nil). The
// duration runs from just before the request's first byte is written to just
// after the answer's last byte is read. Notifications that arrive first are
// skipped; a request from the server gets a method-not-found error.
func (c *Raw) Call(method string, params, result any) (time.Duration, error) {
	c.nextID++
	id := c.nextID
	req, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	if err != nil {
		return 0, err
	}
	req = append(req, '\n')
	start := time.Now()
	if _, err := c.in.Write(req); err != nil {
		return 0, fmt.Errorf("%s: writing: %w", method, err)
	}
	for {
		if err := c.readLine(); err != nil {
			return 0, fmt.Errorf("%s: reading: %w", method, err)
		}
		d := time.Since(start)
		var env envelope
		if err := json.Unmarshal(c.line, &env); err != nil {
			return 0, fmt.Errorf("%s: bad answer %.200q: %w", method, c.line, err)
		}
		switch {
		case env.Method != "" && env.ID != nil:
			if err := c.refuse(*env.ID); err != nil {
				return 0, err
			}
		case env.Method != "":
			// A notification: not the answer.
		case env.ID == nil || *env.ID != id:
			return 0, fmt.Errorf("%s: answer to id %v, want %d", method, env.ID, id)
		case env.Error != nil:
			return d, fmt.Errorf("%s: %w", method, env.Error)
		case result != nil:
			return d, json.Unmarshal(env.Result, result)
		default:
			return d, nil
		}
	}
}

// CallTool calls a tool. An isError result is returned with an error holding
// its text.
func (c *Raw) CallTool(name string, args map[string]any) (*mcp.CallToolResult, time.Duration, error) {
	var res mcp.CallToolResult
	d, err := c.Call("tools/call", map[string]any{"name": name, "arguments": args}, &res)
	if err != nil {
		return nil, d, err
	}
	if res.IsError {
		_, err := Text(&res, nil)
		return &res, d, err
	}
	return &res, d, nil
}

// readLine reads one newline-terminated message into c.line.
func (c *Raw) readLine() error {
	c.line = c.line[:0]
	for {
		chunk, err := c.out.ReadSlice('\n')
		c.line = append(c.line, chunk...)
		switch {
		case err == nil:
			c.line = bytes.TrimRight(c.line, "\r\n")
			if len(bytes.TrimSpace(c.line)) == 0 {
				c.line = c.line[:0]
				continue
			}
			return nil
		case !errors.Is(err, bufio.ErrBufferFull):
			return err
		}
	}
}

func (c *Raw) notify(method string) error {
	b, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": method})
	if err != nil {
		return err
	}
	_, err = c.in.Write(append(b, '\n'))
	return err
}

func (c *Raw) refuse(id int) error {
	b, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "error": rpcError{Code: -32601, Message: "the benchmark client answers nothing"}})
	if err != nil {
		return err
	}
	_, err = c.in.Write(append(b, '\n'))
	return err
}

// PID is the server's process id.
func (c *Raw) PID() int { return c.Cmd.Process.Pid }

// Negotiated is the protocol version the server answered with.
func (c *Raw) Negotiated() string { return c.negotiated }

// Memory reads VmRSS and VmHWM of the server process.
func (c *Raw) Memory() (Mem, error) { return ReadMem(c.PID()) }

// CPU is the server's CPU time so far (see CPUTime).
func (c *Raw) CPU() (time.Duration, error) { return CPUTime(c.PID()) }

// Close closes the server's stdin and waits up to 2 s for it to exit, then
// kills it.
func (c *Raw) Close() error {
	_ = c.in.Close()
	done := make(chan error, 1)
	go func() {
		_, _ = io.Copy(io.Discard, c.out)
		done <- c.Cmd.Wait()
	}()
	select {
	case err := <-done:
		return err
	case <-time.After(2 * time.Second):
		_ = c.Cmd.Process.Kill()
		<-done
		return nil
	}
}

func (c *Raw) kill() error {
	_ = c.in.Close()
	_ = c.Cmd.Process.Kill()
	return c.Cmd.Wait()
}
