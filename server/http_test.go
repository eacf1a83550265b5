package server

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/grove-mcp/grove/roots"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const testToken = "test-token-0123456789abcdef"

// httpGrove is a grove serving HTTP on a loopback port for a test.
type httpGrove struct {
	s   *Server
	f   *front
	url string
}

// startHTTP serves cfg over HTTP on 127.0.0.1 until the test ends, as
// RunHTTP does, keeping the pieces for the test to look at.
func startHTTP(t testing.TB, cfg Config, hc HTTPConfig) *httpGrove {
	t.Helper()
	cfg.multi = true
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hc.Token = testToken
	hc.defaults()
	f := newFront(s, hc, ln.Addr().String())
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- f.serve(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("serve: %v", err)
			}
		case <-time.After(waitLimit):
			t.Errorf("the server did not shut down within %v", waitLimit)
		}
		s.Close()
	})
	return &httpGrove{s: s, f: f, url: "http://" + ln.Addr().String() + "/mcp"}
}

// bearer adds the Authorization header to every request.
type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// connectHTTP connects an SDK client of era to g, with client roots (paths)
// and the notification recorders of connectWatching.
func connectHTTP(t *testing.T, g *httpGrove, era string, clientRoots ...string) (*mcp.ClientSession, *mcp.Client, events) {
	t.Helper()
	ev := events{updated: make(chan string, 1000), listChanged: make(chan struct{}, 1000), logged: make(chan *mcp.LoggingMessageParams, 1000)}
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, &mcp.ClientOptions{
		ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
			ev.updated <- req.Params.URI
		},
		ResourceListChangedHandler: func(context.Context, *mcp.ResourceListChangedRequest) {
			ev.listChanged <- struct{}{}
		},
		LoggingMessageHandler: func(_ context.Context, req *mcp.LoggingMessageRequest) {
			ev.logged <- req.Params
		},
	})
	for _, r := range clientRoots {
		client.AddRoots(&mcp.Root{URI: roots.URI(r)})
	}
	tr := &mcp.StreamableClientTransport{Endpoint: g.url, HTTPClient: &http.Client{Transport: bearer{testToken}}}
	cs, err := client.Connect(context.Background(), tr, &mcp.ClientSessionOptions{ProtocolVersion: era})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs, client, ev
}

// post sends one raw POST with the headers of a legacy or modern request.
func post(t *testing.T, url string, hdr map[string]string, body string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { res.Body.Close() })
	return res
}

// rpcError reads a JSON-RPC error body.
func rpcError(t *testing.T, res *http.Response) rpcErrorBody {
	t.Helper()
	var b rpcErrorBody
	if err := json.NewDecoder(io.LimitReader(res.Body, 1<<20)).Decode(&b); err != nil {
		t.Fatalf("status %d: the body is not a JSON-RPC error: %v", res.StatusCode, err)
	}
	return b
}

const initializeBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`

func TestHTTPRefusesStrangers(t *testing.T) {
	extra := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "extra") })
	g := startHTTP(t, Config{Roots: []string{realTemp(t)}}, HTTPConfig{AllowOrigins: []string{"https://ok.example"},
		Mount: map[string]http.Handler{"/extra": extra}})
	auth := "Bearer " + testToken
	for _, tt := range []struct {
		name       string
		hdr        map[string]string
		wantStatus int
		wantMsg    string
	}{
		{"no token", nil, http.StatusUnauthorized, "no bearer token"},
		{"wrong token", map[string]string{"Authorization": "Bearer " + strings.ToUpper(testToken)}, http.StatusUnauthorized, "invalid token"},
		{"not bearer", map[string]string{"Authorization": "Basic " + testToken}, http.StatusUnauthorized, "no bearer token"},
		{"foreign origin", map[string]string{"Authorization": auth, "Origin": "https://evil.example"}, http.StatusForbidden, "Origin not allowed"},
		{"null origin", map[string]string{"Authorization": auth, "Origin": "null"}, http.StatusForbidden, "Origin not allowed"},
		{"rebinding host", map[string]string{"Authorization": auth, "Host": "evil.example"}, http.StatusForbidden, "Host header not allowed"},
		{"rebinding host with port", map[string]string{"Authorization": auth, "Host": "evil.example:80"}, http.StatusForbidden, "Host header not allowed"},
		{"rebinding host without token", map[string]string{"Host": "evil.example"}, http.StatusForbidden, "Host header not allowed"},
		{"allowed origin", map[string]string{"Authorization": auth, "Origin": "https://ok.example"}, http.StatusOK, ""},
		{"localhost host", map[string]string{"Authorization": auth, "Host": "localhost"}, http.StatusOK, ""},
		{"mounted path without token", map[string]string{"path": "/extra"}, http.StatusUnauthorized, "no bearer token"},
		{"mounted path, foreign origin", map[string]string{"path": "/extra", "Authorization": auth, "Origin": "https://evil.example"}, http.StatusForbidden, "Origin"},
		{"mounted path", map[string]string{"path": "/extra", "Authorization": auth}, http.StatusOK, ""},
		{"unknown path", map[string]string{"path": "/nope", "Authorization": auth}, http.StatusNotFound, "not found"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			url := g.url
			if p := tt.hdr["path"]; p != "" {
				url = strings.TrimSuffix(url, "/mcp") + p
				delete(tt.hdr, "path")
			}
			req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(initializeBody))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			for k, v := range tt.hdr {
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
			defer res.Body.Close()
			if res.StatusCode != tt.wantStatus {
				t.Fatalf("status %d, want %d", res.StatusCode, tt.wantStatus)
			}
			if tt.wantStatus == http.StatusOK {
				return
			}
			if tt.wantStatus == http.StatusUnauthorized && !strings.HasPrefix(res.Header.Get("WWW-Authenticate"), "Bearer") {
				t.Errorf("WWW-Authenticate = %q, want a Bearer challenge", res.Header.Get("WWW-Authenticate"))
			}
			b := rpcError(t, res)
			if b.Error.Code != -32600 || b.Error.Data.HTTPStatus != tt.wantStatus || !strings.Contains(b.Error.Message, tt.wantMsg) || b.ID != nil {
				t.Errorf("body %+v, want code -32600, status %d, a message with %q, a null id", b, tt.wantStatus, tt.wantMsg)
			}
		})
	}
}

func TestHTTPBothEras(t *testing.T) {
	dir := realTemp(t)
	g := startHTTP(t, Config{Roots: []string{dir}}, HTTPConfig{})
	for _, era := range eras {
		t.Run(era, func(t *testing.T) {
			cs, _, ev := connectHTTP(t, g, era)
			f := filepath.Join(dir, era+".txt")
			write(t, f, "hello")
			res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: roots.URI(f)})
			if err != nil {
				t.Fatal(err)
			}
			if got := res.Contents[0].Text; got != "hello" {
				t.Errorf("read %q, want hello", got)
			}
			if got, want := paths(listRoots(t, cs)), []string{dir}; !slices.Equal(got, want) {
				t.Errorf("roots %v, want %v", got, want)
			}
			if err := cs.Subscribe(context.Background(), &mcp.SubscribeParams{URI: roots.URI(f)}); err != nil {
				t.Fatal(err)
			}
			waitSubscribedTo(t, g.s, f)
			primeUpdates(t, ev, f, roots.URI(f))
			if err := cs.Unsubscribe(context.Background(), &mcp.UnsubscribeParams{URI: roots.URI(f)}); err != nil {
				t.Fatal(err)
			}
			waitSubscribedTo(t, g.s)
		})
	}
}

func TestHTTPNeedsRoots(t *testing.T) {
	err := RunHTTP(context.Background(), Config{}, HTTPConfig{Addr: "127.0.0.1:0", Token: testToken})
	if !errors.Is(err, ErrNoRootsHTTP) {
		t.Errorf("RunHTTP without roots: %v, want %v", err, ErrNoRootsHTTP)
	}
}

// Two sessions whose client roots are disjoint each see their own files and
// roots only, and hear only of their own subscriptions, even to the same URI
// once one's roots moved away from it.
func TestHTTPSessionsAreClientsOfTheirOwn(t *testing.T) {
	base := realTemp(t)
	mkdirs(t, base, "a", "b")
	a, b := filepath.Join(base, "a"), filepath.Join(base, "b")
	fa, fb := filepath.Join(a, "x.txt"), filepath.Join(b, "y.txt")
	write(t, fa, "a")
	write(t, fb, "b")
	g := startHTTP(t, Config{Roots: []string{base}}, HTTPConfig{})
	csA, _, evA := connectHTTP(t, g, legacy, a)
	csB, clientB, evB := connectHTTP(t, g, legacy, a)
	ctx := context.Background()

	// Both start in a and subscribe to a's file; then B's roots move to b.
	for _, cs := range []*mcp.ClientSession{csA, csB} {
		if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: roots.URI(fa)}); err != nil {
			t.Fatal(err)
		}
	}
	setClientRoots(t, csB, clientB, []string{a}, b)
	if err := csB.Subscribe(ctx, &mcp.SubscribeParams{URI: roots.URI(fb)}); err != nil {
		t.Fatal(err)
	}
	if got, want := paths(listRoots(t, csA)), []string{a}; !slices.Equal(got, want) {
		t.Errorf("A's roots %v, want %v", got, want)
	}
	if got, want := paths(listRoots(t, csB)), []string{b}; !slices.Equal(got, want) {
		t.Errorf("B's roots %v, want %v", got, want)
	}
	for _, tt := range []struct {
		cs       *mcp.ClientSession
		who, own string
		other    string
	}{{csA, "A", fa, fb}, {csB, "B", fb, fa}} {
		if _, err := tt.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: roots.URI(tt.own)}); err != nil {
			t.Errorf("%s reading its own file: %v", tt.who, err)
		}
		if _, err := tt.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: roots.URI(tt.other)}); err == nil || !strings.Contains(err.Error(), "not found") {
			t.Errorf("%s reading the other's file: %v, want not found", tt.who, err)
		}
		res, err := tt.cs.CallTool(ctx, &mcp.CallToolParams{Name: "read_file", Arguments: map[string]any{"path": tt.other}})
		if err != nil || !res.IsError {
			t.Errorf("%s read_file of the other's file: %v, %+v; want a tool error", tt.who, err, res)
		}
	}

	write(t, fa, "a changed")
	expectUpdated(t, evA, roots.URI(fa))
	// B hears of its own file, and never of a's, written before it.
	write(t, fb, "b changed")
	expectUpdated(t, evB, roots.URI(fb), roots.URI(fa))
	if n := g.s.multi.count(); n != 2 {
		t.Errorf("%d sessions with roots of their own, want 2", n)
	}
}

// A modern request's roots come with it: they narrow the ceiling for that
// request only, over HTTP as over stdio.
func TestHTTPModernRequestRoots(t *testing.T) {
	base := realTemp(t)
	mkdirs(t, base, "a", "b")
	fb := filepath.Join(base, "b", "y.txt")
	write(t, fb, "b")
	g := startHTTP(t, Config{Roots: []string{base}}, HTTPConfig{})
	hdr := map[string]string{"Authorization": "Bearer " + testToken, "MCP-Protocol-Version": modern,
		"Mcp-Method": "resources/read", "Mcp-Name": roots.URI(fb)}
	read := func(clientRoot string) string {
		params := map[string]any{"uri": roots.URI(fb), "_meta": modernRequestMeta(true), "requestState": "grove:roots",
			"inputResponses": map[string]any{"roots": map[string]any{"roots": []map[string]string{{"uri": roots.URI(clientRoot)}}}}}
		body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 7, "method": "resources/read", "params": params})
		res := post(t, g.url, hdr, string(body))
		data, _ := io.ReadAll(res.Body)
		return string(data)
	}
	if got := read(filepath.Join(base, "b")); !strings.Contains(got, `"text":"b"`) {
		t.Errorf("read inside the request's roots: %s", got)
	}
	if got := read(filepath.Join(base, "a")); !strings.Contains(got, "Resource not found") {
		t.Errorf("read outside the request's roots: %s, want not found", got)
	}
}

// sseEvent is one server-sent event.
type sseEvent struct{ name, id, data string }

// readEvents sends the events of an SSE body to a channel until it ends.
func readEvents(body io.Reader) <-chan sseEvent {
	ch := make(chan sseEvent, 100)
	go func() {
		defer close(ch)
		sc := bufio.NewScanner(body)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		var e sseEvent
		for sc.Scan() {
			line := sc.Text()
			switch {
			case line == "":
				if e != (sseEvent{}) {
					ch <- e
				}
				e = sseEvent{}
			case strings.HasPrefix(line, "event: "):
				e.name = strings.TrimPrefix(line, "event: ")
			case strings.HasPrefix(line, "id: "):
				e.id = strings.TrimPrefix(line, "id: ")
			case strings.HasPrefix(line, "data: "):
				e.data = strings.TrimPrefix(line, "data: ")
			}
		}
	}()
	return ch
}

// nextEvent waits for an event whose data holds want.
func nextEvent(t *testing.T, ch <-chan sseEvent, want string) sseEvent {
	t.Helper()
	timeout := time.After(waitLimit)
	for {
		select {
		case e, ok := <-ch:
			if !ok {
				t.Fatalf("the stream ended before an event with %q", want)
			}
			if strings.Contains(e.data, want) || (want == "" && e.name == "prime") {
				return e
			}
		case <-timeout:
			t.Fatalf("no event with %q within %v", want, waitLimit)
		}
	}
}

// rawSession is a legacy session driven by hand.
type rawSession struct {
	t   *testing.T
	url string
	id  string
}

func openRawSession(t *testing.T, url string, caps string) *rawSession {
	t.Helper()
	auth := map[string]string{"Authorization": "Bearer " + testToken}
	res := post(t, url, auth, strings.Replace(initializeBody, `"capabilities":{}`, `"capabilities":`+caps, 1))
	if res.StatusCode != http.StatusOK {
		t.Fatalf("initialize: status %d", res.StatusCode)
	}
	nextEvent(t, readEvents(res.Body), `"protocolVersion"`)
	rs := &rawSession{t: t, url: url, id: res.Header.Get("Mcp-Session-Id")}
	if res := rs.post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`); res.StatusCode != http.StatusAccepted {
		t.Fatalf("initialized: status %d", res.StatusCode)
	}
	return rs
}

func (rs *rawSession) headers() map[string]string {
	return map[string]string{"Authorization": "Bearer " + testToken, "Mcp-Session-Id": rs.id, "MCP-Protocol-Version": legacy}
}

func (rs *rawSession) post(body string) *http.Response {
	return post(rs.t, rs.url, rs.headers(), body)
}

// stream opens the session's GET stream, resuming after lastEventID if set.
func (rs *rawSession) stream(ctx context.Context, lastEventID string) (<-chan sseEvent, *http.Response) {
	rs.t.Helper()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, rs.url, nil)
	req.Header.Set("Accept", "text/event-stream")
	for k, v := range rs.headers() {
		req.Header.Set(k, v)
	}
	if lastEventID != "" {
		req.Header.Set("Last-Event-ID", lastEventID)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		rs.t.Fatal(err)
	}
	rs.t.Cleanup(func() { res.Body.Close() })
	if res.StatusCode != http.StatusOK {
		rs.t.Fatalf("GET stream: status %d", res.StatusCode)
	}
	return readEvents(res.Body), res
}

// A client whose notification stream dropped gets, on reconnecting with
// Last-Event-ID, the resources/updated it missed.
func TestHTTPResumesNotifications(t *testing.T) {
	dir := realTemp(t)
	f := filepath.Join(dir, "f.txt")
	write(t, f, "0")
	g := startHTTP(t, Config{Roots: []string{dir}}, HTTPConfig{})
	appended := make(chan string, 100)
	g.f.events.onAppend = func(data []byte) {
		if strings.Contains(string(data), "notifications/resources/updated") {
			appended <- string(data)
		}
	}
	rs := openRawSession(t, g.url, `{}`)
	ctx, cancel := context.WithCancel(context.Background())
	events, _ := rs.stream(ctx, "")
	res := rs.post(`{"jsonrpc":"2.0","id":2,"method":"resources/subscribe","params":{"uri":"` + roots.URI(f) + `"}}`)
	nextEvent(t, readEvents(res.Body), `"result":{}`)

	write(t, f, "1")
	first := nextEvent(t, events, "notifications/resources/updated")
	cancel() // the stream drops
	for range events {
	}
	drain(appended)
	write(t, f, "2")
	select {
	case <-appended: // kept for the client while it is away
	case <-time.After(waitLimit):
		t.Fatalf("no update stored within %v", waitLimit)
	}
	resumed, _ := rs.stream(context.Background(), first.id)
	got := nextEvent(t, resumed, "notifications/resources/updated")
	if got.id == first.id || !strings.Contains(got.data, roots.URI(f)) {
		t.Errorf("resumed with %+v after %+v, want the missed update", got, first)
	}
}

func drain(ch chan string) {
	for {
		select {
		case <-ch:
		default:
			return
		}
	}
}

func TestHTTPBodyLimit(t *testing.T) {
	g := startHTTP(t, Config{Roots: []string{realTemp(t)}}, HTTPConfig{MaxBodyBytes: 1000})
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
	g := startHTTP(t, Config{Roots: []string{realTemp(t)}}, HTTPConfig{MaxSessions: 1})
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
func waitSessions(t *testing.T, s *Server, n int) {
	t.Helper()
	deadline := time.Now().Add(waitLimit)
	for {
		got := 0
		for range s.mcp.Sessions() {
			got++
		}
		if got == n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d sessions after %v, want %d", got, waitLimit, n)
		}
		time.Sleep(time.Millisecond)
	}
}

// An idle session ends; its ID then gets 404, as the spec says of a session
// the server no longer knows.
func TestHTTPIdleTimeout(t *testing.T) {
	g := startHTTP(t, Config{Roots: []string{realTemp(t)}}, HTTPConfig{IdleTimeout: 50 * time.Millisecond})
	rs := openRawSession(t, g.url, `{}`)
	var ended []*mcp.ServerSession
	for ss := range g.s.mcp.Sessions() {
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
	g := startHTTP(t, Config{Roots: []string{realTemp(t)}}, HTTPConfig{MaxInFlight: 1})
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

// The client log records a session's requests cause reach that session
// alone, at the level it set: A's refused root is told to A, never to B.
func TestHTTPClientLogIsPerSession(t *testing.T) {
	base := realTemp(t)
	mkdirs(t, base, "ceiling", "outA", "outB")
	g := startHTTP(t, Config{Roots: []string{filepath.Join(base, "ceiling")}}, HTTPConfig{})
	csA, clientA, _ := connectHTTP(t, g, legacy)
	csB, clientB, evB := connectHTTP(t, g, legacy)
	ctx := context.Background()
	for _, cs := range []*mcp.ClientSession{csA, csB} {
		if err := cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "debug"}); err != nil {
			t.Fatal(err)
		}
	}
	outA, outB := roots.URI(filepath.Join(base, "outA")), roots.URI(filepath.Join(base, "outB"))
	clientA.AddRoots(&mcp.Root{URI: outA})
	listRoots(t, csA) // waits for A's roots
	clientB.AddRoots(&mcp.Root{URI: outB})
	listRoots(t, csB)
	timeout := time.After(waitLimit)
	for {
		select {
		case p := <-evB.logged:
			data, _ := json.Marshal(p.Data)
			if strings.Contains(string(data), outA) {
				t.Fatalf("B was told of A's root: %s", data)
			}
			if strings.Contains(string(data), outB) {
				return
			}
		case <-timeout:
			t.Fatalf("B was not told of its own refused root within %v", waitLimit)
		}
	}
}

// Shutdown ends the sessions, which closes their open streams (a legacy GET
// stream, a modern subscriptions/listen), instead of waiting for them until
// the grace period runs out.
func TestHTTPShutdownClosesStreams(t *testing.T) {
	dir := realTemp(t)
	f := filepath.Join(dir, "f.txt")
	write(t, f, "0")
	cfg := Config{Roots: []string{dir}, multi: true}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hc := HTTPConfig{Token: testToken, ShutdownGrace: 10 * waitLimit}
	hc.defaults()
	fr := newFront(s, hc, ln.Addr().String())
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- fr.serve(ctx, ln) }()
	url := "http://" + ln.Addr().String() + "/mcp"

	rs := openRawSession(t, url, `{}`)
	stream, _ := rs.stream(context.Background(), "")
	listen := post(t, url, map[string]string{"Authorization": "Bearer " + testToken, "MCP-Protocol-Version": modern,
		"Mcp-Method": "subscriptions/listen"},
		`{"jsonrpc":"2.0","id":5,"method":"subscriptions/listen","params":{"notifications":{"resourceSubscriptions":["`+roots.URI(f)+`"]},"_meta":`+
			mustJSON(t, modernRequestMeta(false))+`}}`)
	listenEvents := readEvents(listen.Body)
	nextEvent(t, listenEvents, "notifications/subscriptions/acknowledged")
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("serve: %v", err)
		}
	case <-time.After(waitLimit):
		t.Fatalf("shutdown waited more than %v with streams open", waitLimit)
	}
	for _, ch := range []<-chan sseEvent{stream, listenEvents} {
		for range ch { // ends
		}
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A body that trickles in is cut off with 408; the connection is not held.
func TestHTTPSlowBody(t *testing.T) {
	g := startHTTP(t, Config{Roots: []string{realTemp(t)}}, HTTPConfig{bodyTimeout: 200 * time.Millisecond})
	conn, err := net.Dial("tcp", strings.TrimSuffix(strings.TrimPrefix(g.url, "http://"), "/mcp"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	io.WriteString(conn, "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "+testToken+
		"\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 100\r\n\r\n{\"jsonrpc\"")
	conn.SetReadDeadline(time.Now().Add(waitLimit))
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
	dir := realTemp(t)
	g := startHTTP(t, Config{Roots: []string{dir}}, HTTPConfig{MaxSessions: 1})
	listen := func(id int) *http.Response {
		return post(t, g.url, map[string]string{"Authorization": "Bearer " + testToken, "MCP-Protocol-Version": modern,
			"Mcp-Method": "subscriptions/listen"},
			`{"jsonrpc":"2.0","id":`+mustJSON(t, id)+`,"method":"subscriptions/listen","params":{"notifications":{"resourcesListChanged":true},"_meta":`+
				mustJSON(t, modernRequestMeta(false))+`}}`)
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
