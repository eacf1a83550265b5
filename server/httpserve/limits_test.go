package httpserve

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/grove-mcp/grove/internal/servertest"
	"github.com/grove-mcp/grove/server"
)

func TestHTTPBodyLimit(t *testing.T) {
	g := startHTTP(t, server.Config{Roots: []string{servertest.RealTemp(t)}}, Config{MaxBodyBytes: 1000})
	auth := map[string]string{"Authorization": "Bearer " + testToken}
	big := `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"` + strings.Repeat("x", 1000) + `"}}`
	res := post(t, g.url, auth, big)
	if res.StatusCode != http.StatusRequestEntityTooLarge {
		t.Fatalf("status %d, want 413", res.StatusCode)
	}
	if b := rpcError(t, res); !strings.Contains(b.Error.Message, "1000 bytes") {
		t.Errorf("message %q does not give the limit", b.Error.Message)
	}
	if res := post(t, g.url, auth, initializeBody); res.StatusCode != http.StatusOK {
		t.Errorf("a small body after a large one: status %d", res.StatusCode)
	}
}

func TestHTTPSessionLimit(t *testing.T) {
	g := startHTTP(t, server.Config{Roots: []string{servertest.RealTemp(t)}}, Config{MaxSessions: 1})
	rs := openRawSession(t, g.url, `{}`)
	res := post(t, g.url, map[string]string{"Authorization": "Bearer " + testToken}, initializeBody)
	if res.StatusCode != http.StatusServiceUnavailable || res.Header.Get("Retry-After") == "" {
		t.Fatalf("second session: status %d, Retry-After %q; want 503 with Retry-After", res.StatusCode, res.Header.Get("Retry-After"))
	}
	if b := rpcError(t, res); b.Error.Code != -32603 || !strings.Contains(b.Error.Message, "--http-max-sessions") {
		t.Errorf("body %+v", b)
	}
	// The session's own requests still pass; once it ends, a new one may start.
	if res := rs.post(`{"jsonrpc":"2.0","id":3,"method":"ping"}`); res.StatusCode != http.StatusOK {
		t.Errorf("ping in the open session: status %d", res.StatusCode)
	}
	req, _ := http.NewRequest(http.MethodDelete, g.url, nil)
	for k, v := range rs.headers() {
		req.Header.Set(k, v)
	}
	if res, err := http.DefaultClient.Do(req); err != nil || res.StatusCode != http.StatusNoContent {
		t.Fatalf("DELETE: %v %v", err, res)
	}
	waitSessions(t, g.s, 0)
	if res := post(t, g.url, map[string]string{"Authorization": "Bearer " + testToken}, initializeBody); res.StatusCode != http.StatusOK {
		t.Errorf("a session after the first ended: status %d", res.StatusCode)
	}
}

// waitSessions waits until the server has n sessions.
func waitSessions(t *testing.T, s *server.Server, n int) {
	t.Helper()
	deadline := time.Now().Add(servertest.WaitLimit)
	for {
		got := 0
		for range s.MCP().Sessions() {
			got++
		}
		if got == n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d sessions after %v, want %d", got, servertest.WaitLimit, n)
		}
		time.Sleep(time.Millisecond)
	}
}

// An idle session ends; its ID then gets 404, as the spec says of a session
// the server no longer knows.
func TestHTTPIdleTimeout(t *testing.T) {
	g := startHTTP(t, server.Config{Roots: []string{servertest.RealTemp(t)}}, Config{IdleTimeout: 50 * time.Millisecond})
	rs := openRawSession(t, g.url, `{}`)
	var ended []*mcp.ServerSession
	for ss := range g.s.MCP().Sessions() {
		ended = append(ended, ss)
	}
	for _, ss := range ended {
		ss.Wait()
	}
	res := rs.post(`{"jsonrpc":"2.0","id":3,"method":"ping"}`)
	if res.StatusCode != http.StatusNotFound {
		t.Fatalf("status %d, want 404", res.StatusCode)
	}
	if b := rpcError(t, res); b.Error.Data.HTTPStatus != http.StatusNotFound {
		t.Errorf("body %+v", b)
	}
}

// A session whose requests in flight reach the limit gets 429 for the next;
// a body holding only a response is never refused. The first request waits
// for the client's roots, which this client never sends.
func TestHTTPInFlightLimit(t *testing.T) {
	g := startHTTP(t, server.Config{Roots: []string{servertest.RealTemp(t)}}, Config{MaxInFlight: 1})
	rs := openRawSession(t, g.url, `{"roots":{"listChanged":true}}`)
	slow := rs.post(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"list_roots","arguments":{}}}`)
	slowEvents := readEvents(slow.Body)
	nextEvent(t, slowEvents, "") // primed: the request is in flight
	res := rs.post(`{"jsonrpc":"2.0","id":3,"method":"ping"}`)
	if res.StatusCode != http.StatusTooManyRequests || res.Header.Get("Retry-After") == "" {
		t.Fatalf("status %d, want 429 with Retry-After", res.StatusCode)
	}
	if b := rpcError(t, res); !strings.Contains(b.Error.Message, "--http-max-in-flight") {
		t.Errorf("body %+v", b)
	}
	if res := rs.post(`{"jsonrpc":"2.0","id":99,"result":{"roots":[]}}`); res.StatusCode == http.StatusTooManyRequests {
		t.Errorf("a response was refused for in-flight requests")
	}
	nextEvent(t, slowEvents, `"id":2`)
}

func TestClassify(t *testing.T) {
	for _, tt := range []struct {
		body     string
		requests int
		listen   bool
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"ping"}`, 1, false},
		{`{"jsonrpc":"2.0","method":"notifications/initialized"}`, 0, false},
		{`{"jsonrpc":"2.0","id":1,"result":{}}`, 0, false},
		{`[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"tools/list"}]`, 2, false},
		{`{"jsonrpc":"2.0","id":"s","method":"subscriptions/listen"}`, 1, true},
		{`not json`, 1, false},
		{` [ ] `, 0, false},
	} {
		requests, listen := classify([]byte(tt.body))
		if diff := cmp.Diff([]any{tt.requests, tt.listen}, []any{requests, listen}); diff != "" {
			t.Errorf("classify(%s) mismatch (-want +got):\n%s", tt.body, diff)
		}
	}
}

// A body that trickles in is cut off with 408; the connection is not held.
func TestHTTPSlowBody(t *testing.T) {
	g := startHTTP(t, server.Config{Roots: []string{servertest.RealTemp(t)}}, Config{bodyTimeout: 200 * time.Millisecond})
	conn, err := net.Dial("tcp", strings.TrimSuffix(strings.TrimPrefix(g.url, "http://"), "/mcp"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	io.WriteString(conn, "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "+testToken+
		"\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 100\r\n\r\n{\"jsonrpc\"")
	conn.SetReadDeadline(time.Now().Add(servertest.WaitLimit))
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusRequestTimeout {
		t.Fatalf("status %d, want 408", res.StatusCode)
	}
	if b := rpcError(t, res); !strings.Contains(b.Error.Message, "did not arrive") {
		t.Errorf("body %+v", b)
	}
}

// A modern subscriptions/listen stream counts as a session: past the limit,
// the next gets 503.
func TestHTTPListenStreamsCountAsSessions(t *testing.T) {
	dir := servertest.RealTemp(t)
	g := startHTTP(t, server.Config{Roots: []string{dir}}, Config{MaxSessions: 1})
	listen := func(id int) *http.Response {
		return post(t, g.url, map[string]string{"Authorization": "Bearer " + testToken, "MCP-Protocol-Version": servertest.Modern,
			"Mcp-Method": "subscriptions/listen"},
			`{"jsonrpc":"2.0","id":`+mustJSON(t, id)+`,"method":"subscriptions/listen","params":{"notifications":{"resourcesListChanged":true},"_meta":`+
				mustJSON(t, servertest.ModernRequestMeta(false))+`}}`)
	}
	first := listen(1)
	nextEvent(t, readEvents(first.Body), "notifications/subscriptions/acknowledged")
	second := listen(2)
	if second.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("a second listen stream: status %d, want 503", second.StatusCode)
	}
	if res := post(t, g.url, map[string]string{"Authorization": "Bearer " + testToken}, initializeBody); res.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("a legacy session while a listen stream fills the server: status %d, want 503", res.StatusCode)
	}
}
