package httpserve

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/grove-mcp/grove/internal/servertest"
	"github.com/grove-mcp/grove/roots"
	"github.com/grove-mcp/grove/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// sseURL is the HTTP+SSE endpoint of g.
func (g *httpGrove) sseURL() string { return strings.TrimSuffix(g.url, "/mcp") + "/sse" }

func connectSSE(t *testing.T, g *httpGrove, clientRoots ...string) (*mcp.ClientSession, *mcp.Client, servertest.Events) {
	t.Helper()
	tr := &mcp.SSEClientTransport{Endpoint: g.sseURL(), HTTPClient: &http.Client{Transport: bearer{testToken}}}
	return connectOver(t, tr, servertest.Legacy, clientRoots...)
}

// Two SSE sessions are clients of their own: each has its own roots and
// hears of its own subscriptions only.
func TestSSESessions(t *testing.T) {
	base := servertest.RealTemp(t)
	servertest.Mkdirs(t, base, "a", "b")
	a, b := filepath.Join(base, "a"), filepath.Join(base, "b")
	fa, fb := filepath.Join(a, "f.txt"), filepath.Join(b, "f.txt")
	servertest.Write(t, fa, "a")
	servertest.Write(t, fb, "b")
	g := startHTTP(t, server.Config{Roots: []string{base}}, Config{})
	csA, _, evA := connectSSE(t, g, a)
	csB, _, evB := connectSSE(t, g, b)
	if got := csA.InitializeResult().ProtocolVersion; got >= servertest.Modern {
		t.Errorf("SSE negotiated %s, a modern version", got)
	}
	for _, tt := range []struct {
		cs        *mcp.ClientSession
		own       string
		ownRoot   string
		other     string
		ev        servertest.Events
		forbidden string
	}{{csA, fa, a, fb, evA, roots.URI(fb)}, {csB, fb, b, fa, evB, roots.URI(fa)}} {
		if got := servertest.RootPaths(t, tt.cs); !slices.Equal(got, []string{tt.ownRoot}) {
			t.Errorf("roots %v, want [%s]", got, tt.ownRoot)
		}
		res, err := tt.cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: roots.URI(tt.own)})
		if err != nil || len(res.Contents) != 1 {
			t.Fatalf("reading its own file: %v", err)
		}
		if _, err := tt.cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: roots.URI(tt.other)}); err == nil {
			t.Errorf("read the other session's file %s", tt.other)
		}
		if err := tt.cs.Subscribe(context.Background(), &mcp.SubscribeParams{URI: roots.URI(tt.own)}); err != nil {
			t.Fatal(err)
		}
	}
	waitSubscriptions(t, g.m, 2)
	servertest.Write(t, fa, "a changed")
	servertest.ExpectUpdated(t, evA, roots.URI(fa))
	servertest.Write(t, fb, "b changed")
	servertest.ExpectUpdated(t, evB, roots.URI(fb), roots.URI(fa))
}

// rawSSE is an HTTP+SSE session driven by hand: its stream, and the URL
// its endpoint event named.
type rawSSE struct {
	t        *testing.T
	events   <-chan sseEvent
	endpoint string
}

func openRawSSE(t *testing.T, g *httpGrove, caps string) *rawSSE {
	t.Helper()
	res := getRaw(t, g.sseURL(), map[string]string{"Authorization": "Bearer " + testToken})
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET /sse: status %d", res.StatusCode)
	}
	ev := readEvents(res.Body)
	e := <-ev
	if e.name != "endpoint" || !strings.HasPrefix(e.data, "/sse?sessionid=") {
		t.Fatalf("first event %+v, want an endpoint", e)
	}
	rs := &rawSSE{t: t, events: ev, endpoint: strings.TrimSuffix(g.url, "/mcp") + e.data}
	rs.mustPost(strings.Replace(initializeBody, `"capabilities":{}`, `"capabilities":`+caps, 1))
	nextEvent(t, ev, `"protocolVersion"`)
	rs.mustPost(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return rs
}

func (rs *rawSSE) post(body string) *http.Response {
	return post(rs.t, rs.endpoint, map[string]string{"Authorization": "Bearer " + testToken}, body)
}

func (rs *rawSSE) mustPost(body string) {
	rs.t.Helper()
	if res := rs.post(body); res.StatusCode != http.StatusAccepted {
		rs.t.Fatalf("POST %s: status %d", body, res.StatusCode)
	}
}

// getRaw sends one raw GET with hdr, and closes the body when the test ends.
func getRaw(t *testing.T, url string, hdr map[string]string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range hdr {
		if k == "Host" {
			req.Host = v
		} else {
			req.Header.Set(k, v)
		}
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { res.Body.Close() })
	return res
}

func TestSSERefusals(t *testing.T) {
	g := startHTTP(t, server.Config{Roots: []string{servertest.RealTemp(t)}}, Config{MaxBodyBytes: 1000, MaxInFlight: 1})
	auth := "Bearer " + testToken
	for _, tt := range []struct {
		name       string
		hdr        map[string]string
		wantStatus int
	}{
		{"no token", nil, http.StatusUnauthorized},
		{"wrong token", map[string]string{"Authorization": "Bearer " + strings.ToUpper(testToken)}, http.StatusUnauthorized},
		{"foreign origin", map[string]string{"Authorization": auth, "Origin": "https://evil.example"}, http.StatusForbidden},
		{"rebinding host", map[string]string{"Authorization": auth, "Host": "evil.example"}, http.StatusForbidden},
	} {
		t.Run("GET "+tt.name, func(t *testing.T) {
			if res := getRaw(t, g.sseURL(), tt.hdr); res.StatusCode != tt.wantStatus {
				t.Errorf("status %d, want %d", res.StatusCode, tt.wantStatus)
			}
		})
	}
	rs := openRawSSE(t, g, `{"roots":{"listChanged":true}}`)
	for _, tt := range []struct {
		name       string
		url, body  string
		hdr        map[string]string
		wantStatus int
	}{
		{"unknown session", g.sseURL() + "?sessionid=nope", `{"jsonrpc":"2.0","id":5,"method":"ping"}`, map[string]string{"Authorization": auth}, http.StatusNotFound},
		{"no session", g.sseURL(), `{"jsonrpc":"2.0","id":5,"method":"ping"}`, map[string]string{"Authorization": auth}, http.StatusNotFound},
		{"no token", rs.endpoint, `{"jsonrpc":"2.0","id":5,"method":"ping"}`, nil, http.StatusUnauthorized},
		{"foreign origin", rs.endpoint, `{"jsonrpc":"2.0","id":5,"method":"ping"}`, map[string]string{"Authorization": auth, "Origin": "https://evil.example"}, http.StatusForbidden},
		{"oversized body", rs.endpoint, `{"jsonrpc":"2.0","id":5,"method":"ping","params":{"pad":"` + strings.Repeat("x", 1000) + `"}}`, map[string]string{"Authorization": auth}, http.StatusRequestEntityTooLarge},
	} {
		t.Run("POST "+tt.name, func(t *testing.T) {
			res := post(t, tt.url, tt.hdr, tt.body)
			if res.StatusCode != tt.wantStatus {
				t.Fatalf("status %d, want %d", res.StatusCode, tt.wantStatus)
			}
			if b := rpcError(t, res); b.Error.Data.HTTPStatus != tt.wantStatus {
				t.Errorf("body %+v", b)
			}
		})
	}
	// list_roots waits for the client's roots, which this client never
	// sends: one request in flight, the most allowed.
	rs.mustPost(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"list_roots","arguments":{}}}`)
	nextEvent(t, rs.events, `"roots/list"`)
	if res := rs.post(`{"jsonrpc":"2.0","id":3,"method":"ping"}`); res.StatusCode != http.StatusTooManyRequests {
		t.Errorf("a second request in flight: status %d, want 429", res.StatusCode)
	}
	rs.mustPost(`{"jsonrpc":"2.0","id":0,"result":{"roots":[]}}`)
	nextEvent(t, rs.events, `"id":2`)
	rs.mustPost(`{"jsonrpc":"2.0","id":3,"method":"ping"}`)
	nextEvent(t, rs.events, `"id":3`)
}

// SSE sessions count against MaxSessions, with Streamable HTTP's.
func TestSSESessionLimit(t *testing.T) {
	g := startHTTP(t, server.Config{Roots: []string{servertest.RealTemp(t)}}, Config{MaxSessions: 1})
	openRawSSE(t, g, `{}`)
	res := getRaw(t, g.sseURL(), map[string]string{"Authorization": "Bearer " + testToken})
	if res.StatusCode != http.StatusServiceUnavailable || res.Header.Get("Retry-After") == "" {
		t.Errorf("a second SSE session: status %d, want 503 with Retry-After", res.StatusCode)
	}
	if res := post(t, g.url, map[string]string{"Authorization": "Bearer " + testToken}, initializeBody); res.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("a Streamable HTTP session beside it: status %d, want 503", res.StatusCode)
	}
}

// With an instance name, every session ID starts with it: a proxy routes
// by it.
func TestInstanceNamesSessions(t *testing.T) {
	g := startHTTP(t, server.Config{Roots: []string{servertest.RealTemp(t)}}, Config{Instance: "b"})
	if rs := openRawSession(t, g.url, `{}`); !strings.HasPrefix(rs.id, "b-") {
		t.Errorf("Streamable HTTP session %q", rs.id)
	}
	if rs := openRawSSE(t, g, `{}`); !strings.Contains(rs.endpoint, "sessionid=b-") {
		t.Errorf("SSE endpoint %q", rs.endpoint)
	}
}

// A client that stops reading its SSE stream loses its session once a
// write has waited past the write timeout.
func TestSSESlowReader(t *testing.T) {
	dir := servertest.RealTemp(t)
	servertest.Write(t, filepath.Join(dir, "big.txt"), strings.Repeat("x", 256<<10))
	g := startHTTP(t, server.Config{Roots: []string{dir}}, Config{writeTimeout: 300 * time.Millisecond})
	small := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := (&net.Dialer{}).DialContext(ctx, network, addr)
		if err == nil {
			err = c.(*net.TCPConn).SetReadBuffer(16 << 10)
		}
		return c, err
	}}}
	req, _ := http.NewRequest(http.MethodGet, g.sseURL(), nil)
	req.Header.Set("Authorization", "Bearer "+testToken)
	res, err := small.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	e := <-readEvents(io.LimitReader(res.Body, 200)) // the endpoint event, then nothing more is read
	rs := &rawSSE{t: t, endpoint: strings.TrimSuffix(g.url, "/mcp") + e.data}
	rs.mustPost(initializeBody)
	waitGauge(t, g, "grove_sessions", 1)
	read := `{"jsonrpc":"2.0","id":%d,"method":"resources/read","params":{"uri":"` + roots.URI(filepath.Join(dir, "big.txt")) + `"}}`
	for i := range 32 { // 8 MiB of answers, never read
		if res := rs.post(fmt.Sprintf(read, 10+i)); res.StatusCode != http.StatusAccepted {
			break // the server gave up on us already
		}
	}
	waitGauge(t, g, "grove_sessions", 0)
}
