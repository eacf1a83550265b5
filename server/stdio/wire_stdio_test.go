package stdio

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/grove-mcp/grove/internal/servertest"
	"github.com/grove-mcp/grove/server"
)

// stdioClient drives [Run] over in-process pipes with raw JSON lines: the
// stdio path main takes, guard, wire connection and drain included.
type stdioClient struct {
	t     testing.TB
	w     *io.PipeWriter
	lines chan []byte
	done  chan error
}

func runStdio(t testing.TB, cfg server.Config) *stdioClient {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := &stdioClient{t: t, w: inW, lines: make(chan []byte, 256), done: make(chan error, 1)}
	go func() {
		err := Run(context.Background(), cfg, inR, outW)
		inR.Close()
		outW.Close()
		c.done <- err
	}()
	go func() {
		defer close(c.lines)
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			c.lines <- bytes.Clone(sc.Bytes())
		}
	}()
	t.Cleanup(func() {
		inW.Close()
		for range c.lines {
		}
		<-c.done
	})
	return c
}

// send writes lines; it fails the test only when the server stopped reading.
func (c *stdioClient) send(lines ...string) {
	c.t.Helper()
	for _, l := range lines {
		if _, err := io.WriteString(c.w, l+"\n"); err != nil {
			c.t.Fatalf("writing to the server: %v", err)
		}
	}
}

// next returns the server's next line that is not a notification (nil at
// the end of output).
func (c *stdioClient) next() []byte {
	c.t.Helper()
	timer := time.NewTimer(wireTimeout)
	defer timer.Stop()
	for {
		select {
		case l, ok := <-c.lines:
			if !ok {
				return nil
			}
			var h struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
			}
			if l[0] == '{' && json.Unmarshal(l, &h) == nil && h.Method != "" && h.ID == nil {
				continue // a notification (list_changed, a log message)
			}
			return l
		case <-timer.C:
			c.t.Fatalf("no answer in %v", wireTimeout)
			return nil
		}
	}
}

// ask sends one line and returns the next answer.
func (c *stdioClient) ask(line string) string {
	c.t.Helper()
	c.send(line)
	return string(c.next())
}

// initialize negotiates version.
func (c *stdioClient) initialize(version string) {
	c.t.Helper()
	got := c.ask(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"` + version + `","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	if !strings.Contains(got, `"protocolVersion":"`+version+`"`) {
		c.t.Fatalf("initialize %s: %s", version, got)
	}
	c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

// alive checks the session still answers a ping.
func (c *stdioClient) alive() {
	c.t.Helper()
	if got, want := c.ask(`{"jsonrpc":"2.0","id":"alive","method":"ping"}`), `{"jsonrpc":"2.0","id":"alive","result":{}}`; got != want {
		c.t.Fatalf("ping answered %s, want %s", got, want)
	}
}

// finish ends the input and returns every line the server wrote after, and
// what Run returned.
func (c *stdioClient) finish() ([]string, error) {
	c.t.Helper()
	c.w.Close()
	var rest []string
	for {
		l := c.next()
		if l == nil {
			break
		}
		rest = append(rest, string(l))
	}
	select {
	case err := <-c.done:
		c.done <- err
		return rest, err
	case <-time.After(wireTimeout):
		c.t.Fatalf("Run did not return in %v after the end of input", wireTimeout)
		return nil, nil
	}
}

func decodeJSON(t testing.TB, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("not JSON: %s: %v", s, err)
	}
	return v
}

// hostileRoot is a root holding a.txt.
func hostileRoot(t testing.TB) string {
	t.Helper()
	dir := servertest.RealTemp(t)
	servertest.Write(t, filepath.Join(dir, "a.txt"), "alpha\n")
	return dir
}

// A control character in a URI gets a not-found error whose data is JSON
// (the SDK's quoting is Go's), the code of the request's era, its id; the
// session goes on. Issue 11, item 1.
func TestStdioControlCharURIs(t *testing.T) {
	root := hostileRoot(t)
	c := runStdio(t, server.Config{Roots: []string{root}})
	c.initialize(servertest.Legacy)
	modernMeta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
	for i, ch := range []string{`\u0000`, `\u0001`, `\u001b`, `\u007f`, `\u0000\u001f\"\\`} {
		for _, tt := range []struct{ method, uri, meta, code string }{
			{"resources/read", "file://" + root + "/a.txt" + ch + "/x", "", "-32002"},
			{"resources/read", "file://" + root + "/a.txt" + ch + "/x", "," + modernMeta, "-32602"},
			{"resources/read", "nope://x" + ch, "", "-32002"}, // no template matches: the SDK's own error
			{"resources/read", "nope://x" + ch, "," + modernMeta, "-32602"},
			{"resources/subscribe", "file:///outside-every-root" + ch, "", "-32002"},
		} {
			id := fmt.Sprintf(`"%s-%d"`, tt.method, i)
			got := c.ask(`{"jsonrpc":"2.0","id":` + id + `,"method":"` + tt.method + `","params":{"uri":"` + tt.uri + `"` + tt.meta + `}}`)
			want := `{"jsonrpc":"2.0","id":` + id + `,"error":{"code":` + tt.code + `,"message":"Resource not found","data":{"uri":"` + tt.uri + `"}}}`
			if diff := cmp.Diff(decodeJSON(t, want), decodeJSON(t, got)); diff != "" {
				t.Errorf("%s %s: answer mismatch (-want +got):\n%s", tt.method, tt.uri, diff)
			}
		}
	}
	c.alive()
}

// Batches follow the negotiated version; no batch ends the session. Issue
// 11, item 2.
func TestStdioBatches(t *testing.T) {
	notes := `[{"jsonrpc":"2.0","method":"notifications/x"},{"jsonrpc":"2.0","method":"notifications/y"}]`
	pingAndNote := `[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/x"}]`
	t.Run("2025-03-26", func(t *testing.T) {
		c := runStdio(t, server.Config{Roots: []string{hostileRoot(t)}})
		c.initialize("2025-03-26")
		c.send(notes)
		if got, want := c.ask(pingAndNote), `[{"jsonrpc":"2.0","id":1,"result":{}}]`; got != want {
			t.Errorf("[ping, notification] answered %s, want %s", got, want)
		}
		if got := c.ask(`[]`); !strings.HasPrefix(got, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,`) {
			t.Errorf("[] answered %s", got)
		}
		c.alive()
	})
	for _, version := range []string{"", "2025-06-18", "2025-11-25", "modern"} {
		t.Run("refused "+version, func(t *testing.T) {
			c := runStdio(t, server.Config{Roots: []string{hostileRoot(t)}})
			line := pingAndNote
			switch version {
			case "modern":
				line = `[{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}]`
			case "":
			default:
				c.initialize(version)
			}
			for _, l := range []string{notes, line, `[]`} {
				if got := c.ask(l); !strings.HasPrefix(got, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,`) {
					t.Errorf("%s answered %s, want one invalid-request error", l, got)
				}
			}
			if version != "" && version != "modern" {
				c.alive()
			}
			rest, err := c.finish()
			if len(rest) != 0 || err != nil {
				t.Errorf("after the end of input: %q, Run: %v", rest, err)
			}
		})
	}
}

// Ids are strings or integers, echoed as sent. Issue 11, item 3.
func TestStdioIDs(t *testing.T) {
	c := runStdio(t, server.Config{Roots: []string{hostileRoot(t)}})
	c.initialize(servertest.Legacy)
	for _, id := range []string{`null`, `1.5`, `1e3`, `-0.0`, `true`} {
		if got, want := c.ask(`{"jsonrpc":"2.0","id":`+id+`,"method":"ping"}`), `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request"}}`; got != want {
			t.Errorf("id %s answered %s, want %s", id, got, want)
		}
	}
	for _, id := range []string{`9007199254740993`, `-5`, `123456789012345678901234567890`, `"\u0000"`} {
		if got, want := c.ask(`{"jsonrpc":"2.0","id":`+id+`,"method":"ping"}`), `{"jsonrpc":"2.0","id":`+id+`,"result":{}}`; got != want {
			t.Errorf("id %s answered %s, want %s", id, got, want)
		}
	}
	c.alive()
}

// An over-long message is answered with its id. Issue 11, item 4.
func TestStdioTooLong(t *testing.T) {
	c := runStdio(t, server.Config{Roots: []string{hostileRoot(t)}})
	c.initialize(servertest.Legacy)
	got := c.ask(`{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"name":"git_commit","arguments":{"message":"` + strings.Repeat("m", 20<<20) + `"}}}`)
	if want := `{"jsonrpc":"2.0","id":42,"error":{"code":-32600,"message":"message too large","data":{"maxBytes":16777216}}}`; got != want {
		t.Errorf("answered %s, want %s", got, want)
	}
	c.alive()
}

// A cancelled request is never answered: a modern subscriptions/listen, which
// runs until cancelled, ends without a response. Issue 11, item 5.
func TestStdioCancel(t *testing.T) {
	c := runStdio(t, server.Config{Roots: []string{hostileRoot(t)}})
	c.send(`{"jsonrpc":"2.0","id":77,"method":"subscriptions/listen","params":{"notifications":{"toolsListChanged":true},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`)
	for ack := false; !ack; {
		select {
		case l := <-c.lines:
			ack = bytes.Contains(l, []byte(`"notifications/subscriptions/acknowledged"`)) && bytes.Contains(l, []byte(`"io.modelcontextprotocol/subscriptionId":77`))
		case <-time.After(wireTimeout):
			t.Fatal("no acknowledgement")
		}
	}
	c.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":77,"reason":"done"}}`)
	c.alive()
	rest, err := c.finish()
	if len(rest) != 0 || err != nil {
		t.Errorf("after the end of input: %q, Run: %v; want no answer to the cancelled listen", rest, err)
	}
}

// A request missing a required param, or with one out of its range, is
// invalid params (-32602). Issue 11, item 6, and its class.
func TestStdioInvalidParams(t *testing.T) {
	c := runStdio(t, server.Config{Roots: []string{hostileRoot(t)}})
	c.initialize(servertest.Legacy)
	for _, tt := range []struct{ method, params string }{
		{"resources/read", ``},
		{"resources/read", `,"params":{}`},
		{"resources/subscribe", `,"params":{}`},
		{"resources/unsubscribe", ``},
		{"logging/setLevel", `,"params":{"level":"verbose"}`},
		{"logging/setLevel", `,"params":{}`},
		{"tools/call", `,"params":{}`},
		{"tools/call", ``},
		{"prompts/get", `,"params":{"name":""}`},
		{"completion/complete", `,"params":{"ref":{"type":"ref/prompt","name":"review_file"}}`},
		{"initialize", `,"params":{}`},
		{"tools/list", `,"params":{"cursor":1}`},
	} {
		got := c.ask(`{"jsonrpc":"2.0","id":"p","method":"` + tt.method + `"` + tt.params + `}`)
		if !strings.HasPrefix(got, `{"jsonrpc":"2.0","id":"p","error":{"code":-32602,`) {
			t.Errorf("%s%s answered %s, want -32602", tt.method, tt.params, got)
		}
	}
	if got := c.ask(`{"jsonrpc":"2.0","id":"ok","method":"logging/setLevel","params":{"level":"debug"}}`); got != `{"jsonrpc":"2.0","id":"ok","result":{}}` {
		t.Errorf("a valid setLevel answered %s", got)
	}
	c.alive()
}
