package httpserve

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/grove-mcp/grove/internal/servertest"
	"github.com/grove-mcp/grove/roots"
	"github.com/grove-mcp/grove/server"
)

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
	timeout := time.After(servertest.WaitLimit)
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
			t.Fatalf("no event with %q within %v", want, servertest.WaitLimit)
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
	return map[string]string{"Authorization": "Bearer " + testToken, "Mcp-Session-Id": rs.id, "MCP-Protocol-Version": servertest.Legacy}
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
	dir := servertest.RealTemp(t)
	f := filepath.Join(dir, "f.txt")
	servertest.Write(t, f, "0")
	g := startHTTP(t, server.Config{Roots: []string{dir}}, Config{})
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

	servertest.Write(t, f, "1")
	first := nextEvent(t, events, "notifications/resources/updated")
	cancel() // the stream drops
	for range events {
	}
	drain(appended)
	servertest.Write(t, f, "2")
	select {
	case <-appended: // kept for the client while it is away
	case <-time.After(servertest.WaitLimit):
		t.Fatalf("no update stored within %v", servertest.WaitLimit)
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

// Shutdown ends the sessions, which closes their open streams (a legacy GET
// stream, a modern subscriptions/listen), instead of waiting for them until
// the grace period runs out.
func TestHTTPShutdownClosesStreams(t *testing.T) {
	dir := servertest.RealTemp(t)
	f := filepath.Join(dir, "f.txt")
	servertest.Write(t, f, "0")
	cfg := server.Config{Roots: []string{dir}, MultiSession: true}
	s, err := server.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hc := Config{Token: testToken, ShutdownGrace: 10 * servertest.WaitLimit}
	hc.defaults()
	fr := newFront(s, cfg, hc, ln.Addr().String())
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- fr.serve(ctx, ln) }()
	url := "http://" + ln.Addr().String() + "/mcp"

	rs := openRawSession(t, url, `{}`)
	stream, _ := rs.stream(context.Background(), "")
	listen := post(t, url, map[string]string{"Authorization": "Bearer " + testToken, "MCP-Protocol-Version": servertest.Modern,
		"Mcp-Method": "subscriptions/listen"},
		`{"jsonrpc":"2.0","id":5,"method":"subscriptions/listen","params":{"notifications":{"resourceSubscriptions":["`+roots.URI(f)+`"]},"_meta":`+
			mustJSON(t, servertest.ModernRequestMeta(false))+`}}`)
	listenEvents := readEvents(listen.Body)
	nextEvent(t, listenEvents, "notifications/subscriptions/acknowledged")
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("serve: %v", err)
		}
	case <-time.After(servertest.WaitLimit):
		t.Fatalf("shutdown waited more than %v with streams open", servertest.WaitLimit)
	}
	for _, ch := range []<-chan sseEvent{stream, listenEvents} {
		for range ch { // ends
		}
	}
}
