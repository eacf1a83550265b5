package benchutil

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestMain lets the test binary play a server for Raw when asked to.
func TestMain(m *testing.M) {
	if os.Getenv("BENCHUTIL_FAKE_SERVER") == "1" {
		fakeServer()
		return
	}
	os.Exit(m.Run())
}

// fakeServer answers initialize, and answers tools/call only after a
// notification and a request of its own, which it expects refused.
func fakeServer() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(nil, 1<<20)
	out := json.NewEncoder(os.Stdout)
	for in.Scan() {
		var msg struct {
			ID     *int            `json:"id"`
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
			Error  *rpcError       `json:"error"`
		}
		if json.Unmarshal(in.Bytes(), &msg) != nil || msg.ID == nil {
			continue // notifications
		}
		switch msg.Method {
		case "initialize":
			out.Encode(map[string]any{"jsonrpc": "2.0", "id": *msg.ID, "result": map[string]any{"protocolVersion": "2025-11-25"}})
		case "tools/call":
			id := *msg.ID
			out.Encode(map[string]any{"jsonrpc": "2.0", "method": "notifications/message", "params": map[string]any{}})
			out.Encode(map[string]any{"jsonrpc": "2.0", "id": 99, "method": "roots/list"})
			in.Scan() // the client's answer to roots/list
			var answer struct {
				Error *rpcError `json:"error"`
			}
			text := "refused"
			if json.Unmarshal(in.Bytes(), &answer) != nil || answer.Error == nil {
				text = "not refused: " + in.Text()
			}
			out.Encode(map[string]any{"jsonrpc": "2.0", "id": id, "result": map[string]any{
				"content": []any{map[string]any{"type": "text", "text": text + " " + string(msg.Params)}},
			}})
		default:
			out.Encode(map[string]any{"jsonrpc": "2.0", "id": *msg.ID, "error": map[string]any{"code": -32601, "message": "no " + msg.Method}})
		}
	}
}

func TestRaw(t *testing.T) {
	t.Setenv("BENCHUTIL_FAKE_SERVER", "1")
	c, err := StartRaw(context.Background(), []string{os.Args[0]}, Legacy, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if c.Negotiated() != Legacy || c.Startup <= 0 {
		t.Errorf("negotiated %q in %v", c.Negotiated(), c.Startup)
	}
	res, d, err := c.CallTool("echo", map[string]any{"n": 1})
	if err != nil {
		t.Fatal(err)
	}
	text, _ := Text(res, nil)
	if !strings.HasPrefix(text, "refused ") || !strings.Contains(text, `"name":"echo"`) || d <= 0 {
		t.Errorf("CallTool = %q in %v; want the server's request refused and the call answered", text, d)
	}
	_, err = c.Call("nothing/here", map[string]any{}, nil)
	if err == nil || !strings.Contains(err.Error(), "-32601") {
		t.Errorf("an error answer gave %v", err)
	}
	if _, err := c.CPU(); err != nil {
		t.Error(err)
	}
	if err := c.Close(); err != nil && !strings.Contains(fmt.Sprint(err), "exit status") {
		t.Errorf("close: %v", err)
	}
}
