package httpserve

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/grove-mcp/grove/internal/servertest"
	"github.com/grove-mcp/grove/roots"
	"github.com/grove-mcp/grove/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// wsURL is the WebSocket endpoint of g.
func (g *httpGrove) wsURL() string {
	return "ws" + strings.TrimPrefix(strings.TrimSuffix(g.url, "/mcp"), "http") + "/ws"
}

// wsClientTransport is an SDK client transport over grove's /ws, with the
// server's own connection type on the client side.
type wsClientTransport struct {
	url string
	hdr http.Header
}

func (t wsClientTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	ws, _, err := websocket.Dial(ctx, t.url, &websocket.DialOptions{Subprotocols: []string{wsSubprotocol}, HTTPHeader: t.hdr})
	if err != nil {
		return nil, err
	}
	ws.SetReadLimit(-1)
	return &wsConn{ws: ws, writeTimeout: servertest.WaitLimit}, nil
}

func authHeader() http.Header {
	return http.Header{"Authorization": {"Bearer " + testToken}}
}

func TestWSBothEras(t *testing.T) {
	base := servertest.RealTemp(t)
	servertest.Mkdirs(t, base, "a", "b")
	g := startHTTP(t, server.Config{Roots: []string{base}}, Config{})
	for _, era := range servertest.Eras {
		t.Run(era, func(t *testing.T) {
			f := filepath.Join(base, "a", era+".txt")
			servertest.Write(t, f, "hello")
			cs, _, ev := connectOver(t, wsClientTransport{url: g.wsURL(), hdr: authHeader()}, era, filepath.Join(base, "a"))
			if got := cs.InitializeResult().ProtocolVersion; got != era {
				t.Errorf("negotiated %s, want %s", got, era)
			}
			res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: roots.URI(f)})
			if err != nil || res.Contents[0].Text != "hello" {
				t.Fatalf("read: %v %+v", err, res)
			}
			if era == servertest.Legacy { // modern requests carry no roots of their own from a client that sends none
				if got := servertest.RootPaths(t, cs); !slices.Equal(got, []string{filepath.Join(base, "a")}) {
					t.Errorf("roots %v", got)
				}
			}
			if err := cs.Subscribe(context.Background(), &mcp.SubscribeParams{URI: roots.URI(f)}); err != nil {
				t.Fatal(err)
			}
			servertest.PrimeUpdates(t, ev, f, roots.URI(f))
		})
	}
}

// dialRaw opens a WebSocket to g with hdr, and closes it when the test ends.
func dialRaw(t *testing.T, url string, hdr http.Header, subprotocols ...string) (*websocket.Conn, *http.Response, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), servertest.WaitLimit)
	defer cancel()
	ws, res, err := websocket.Dial(ctx, url, &websocket.DialOptions{Subprotocols: subprotocols, HTTPHeader: hdr})
	if ws != nil {
		t.Cleanup(func() { ws.CloseNow() })
	}
	return ws, res, err
}

func TestWSRefusesUpgrades(t *testing.T) {
	g := startHTTP(t, server.Config{Roots: []string{servertest.RealTemp(t)}}, Config{AllowOrigins: []string{"https://ok.example"}})
	for _, tt := range []struct {
		name       string
		query      string
		hdr        http.Header
		wantStatus int
	}{
		{"no token", "", nil, http.StatusUnauthorized},
		{"wrong token", "", http.Header{"Authorization": {"Bearer " + strings.ToUpper(testToken)}}, http.StatusUnauthorized},
		{"wrong token in the query", "?access_token=" + strings.ToUpper(testToken), nil, http.StatusUnauthorized},
		{"foreign origin", "", http.Header{"Authorization": {"Bearer " + testToken}, "Origin": {"https://evil.example"}}, http.StatusForbidden},
		{"foreign origin, token in the query", "?access_token=" + testToken, http.Header{"Origin": {"https://evil.example"}}, http.StatusForbidden},
		{"token in the query", "?access_token=" + testToken, nil, http.StatusSwitchingProtocols},
		{"allowed origin", "", http.Header{"Authorization": {"Bearer " + testToken}, "Origin": {"https://ok.example"}}, http.StatusSwitchingProtocols},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, res, err := dialRaw(t, g.wsURL()+tt.query, tt.hdr, wsSubprotocol)
			if res == nil {
				t.Fatalf("no response: %v", err)
			}
			if res.StatusCode != tt.wantStatus {
				t.Errorf("status %d, want %d (%v)", res.StatusCode, tt.wantStatus, err)
			}
		})
	}
	t.Run("rebinding host", func(t *testing.T) {
		// A page on evil.example whose name now resolves to 127.0.0.1.
		addr := strings.TrimPrefix(strings.TrimSuffix(g.url, "/mcp"), "http://")
		_, port, _ := net.SplitHostPort(addr)
		rebound := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
			return (&net.Dialer{}).DialContext(ctx, network, addr)
		}}}
		ctx, cancel := context.WithTimeout(context.Background(), servertest.WaitLimit)
		defer cancel()
		_, res, err := websocket.Dial(ctx, "ws://evil.example:"+port+"/ws", &websocket.DialOptions{
			Subprotocols: []string{wsSubprotocol}, HTTPHeader: authHeader(), HTTPClient: rebound})
		if res == nil || res.StatusCode != http.StatusForbidden {
			t.Errorf("%+v (%v), want 403", res, err)
		}
	})
	t.Run("no subprotocol", func(t *testing.T) {
		ws, _, err := dialRaw(t, g.wsURL(), authHeader())
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = ws.Read(context.Background())
		if got := websocket.CloseStatus(err); got != websocket.StatusPolicyViolation {
			t.Errorf("closed with %v (%v), want %v", got, err, websocket.StatusPolicyViolation)
		}
	})
}

// rawWS is a WebSocket session driven by hand.
type rawWS struct {
	t  *testing.T
	ws *websocket.Conn
}

func openRawWS(t *testing.T, g *httpGrove, caps string) *rawWS {
	t.Helper()
	ws, _, err := dialRaw(t, g.wsURL(), authHeader(), wsSubprotocol)
	if err != nil {
		t.Fatal(err)
	}
	rw := &rawWS{t: t, ws: ws}
	rw.send(strings.Replace(initializeBody, `"capabilities":{}`, `"capabilities":`+caps, 1))
	rw.expect(`"protocolVersion"`)
	rw.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return rw
}

func (rw *rawWS) send(msg string) {
	rw.t.Helper()
	if err := rw.ws.Write(context.Background(), websocket.MessageText, []byte(msg)); err != nil {
		rw.t.Fatal(err)
	}
}

// expect reads messages until one holds want, and returns it.
func (rw *rawWS) expect(want string) string {
	rw.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), servertest.WaitLimit)
	defer cancel()
	for {
		_, data, err := rw.ws.Read(ctx)
		if err != nil {
			rw.t.Fatalf("waiting for %q: %v", want, err)
		}
		if strings.Contains(string(data), want) {
			return string(data)
		}
	}
}

// closedWith reads until the connection ends, and returns its close status.
func (rw *rawWS) closedWith() websocket.StatusCode {
	rw.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), servertest.WaitLimit)
	defer cancel()
	for {
		if _, _, err := rw.ws.Read(ctx); err != nil {
			if errors.Is(err, context.DeadlineExceeded) {
				rw.t.Fatalf("the connection stayed open for %v", servertest.WaitLimit)
			}
			return websocket.CloseStatus(err)
		}
	}
}

func TestWSHostileFrames(t *testing.T) {
	g := startHTTP(t, server.Config{Roots: []string{servertest.RealTemp(t)}}, Config{MaxBodyBytes: 1000, MaxInFlight: 1})
	t.Run("not JSON", func(t *testing.T) {
		rw := openRawWS(t, g, `{}`)
		rw.send(`{"jsonrpc":`)
		rw.expect(`-32700`)
		rw.send(`{"jsonrpc":"2.0","id":7,"method":"ping"}`)
		rw.expect(`"id":7`)
	})
	t.Run("oversized frame", func(t *testing.T) {
		rw := openRawWS(t, g, `{}`)
		rw.send(`{"jsonrpc":"2.0","id":5,"method":"ping","params":{"pad":"` + strings.Repeat("x", 1000) + `"}}`)
		if got := rw.closedWith(); got != websocket.StatusMessageTooBig {
			t.Errorf("closed with %v, want %v", got, websocket.StatusMessageTooBig)
		}
	})
	t.Run("binary frame", func(t *testing.T) {
		rw := openRawWS(t, g, `{}`)
		if err := rw.ws.Write(context.Background(), websocket.MessageBinary, []byte(`{"jsonrpc":"2.0","id":5,"method":"ping"}`)); err != nil {
			t.Fatal(err)
		}
		if got := rw.closedWith(); got != websocket.StatusUnsupportedData {
			t.Errorf("closed with %v, want %v", got, websocket.StatusUnsupportedData)
		}
	})
	t.Run("past the in-flight limit", func(t *testing.T) {
		rw := openRawWS(t, g, `{"roots":{"listChanged":true}}`)
		rw.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"list_roots","arguments":{}}}`)
		ask := rw.expect(`"roots/list"`)
		rw.send(`{"jsonrpc":"2.0","id":3,"method":"ping"}`)
		var refused struct {
			ID    int
			Error struct {
				Data struct{ HTTPStatus int }
			}
		}
		if err := json.Unmarshal([]byte(rw.expect(`"id":3`)), &refused); err != nil || refused.Error.Data.HTTPStatus != http.StatusTooManyRequests {
			t.Errorf("the request past the limit got %+v (%v), want an error with httpStatus 429", refused, err)
		}
		var q struct{ ID json.RawMessage }
		json.Unmarshal([]byte(ask), &q)
		rw.send(`{"jsonrpc":"2.0","id":` + string(q.ID) + `,"result":{"roots":[]}}`)
		rw.expect(`"id":2`)
		rw.send(`{"jsonrpc":"2.0","id":4,"method":"ping"}`)
		rw.expect(`"id":4`)
	})
}

// A client that never reads loses its connection once a write has waited
// past the write timeout: what grove holds for it stays bounded. The
// client's receive buffer is made small, so that a few answers fill the
// connection.
func TestWSSlowReader(t *testing.T) {
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
	ctx, cancel := context.WithTimeout(context.Background(), servertest.WaitLimit)
	defer cancel()
	ws, _, err := websocket.Dial(ctx, g.wsURL(), &websocket.DialOptions{Subprotocols: []string{wsSubprotocol}, HTTPHeader: authHeader(), HTTPClient: small})
	if err != nil {
		t.Fatal(err)
	}
	defer ws.CloseNow()
	rw := &rawWS{t: t, ws: ws}
	rw.send(initializeBody)
	rw.expect(`"protocolVersion"`)
	waitGauge(t, g, "grove_sessions", 1)
	req := `{"jsonrpc":"2.0","id":%d,"method":"resources/read","params":{"uri":"` + roots.URI(filepath.Join(dir, "big.txt")) + `"}}`
	for i := range 32 { // 8 MiB of answers, never read
		if err := ws.Write(ctx, websocket.MessageText, fmt.Appendf(nil, req, 10+i)); err != nil {
			break // the server gave up on us already
		}
	}
	waitGauge(t, g, "grove_sessions", 0)
}

func TestWSSessionLimit(t *testing.T) {
	g := startHTTP(t, server.Config{Roots: []string{servertest.RealTemp(t)}}, Config{MaxSessions: 1})
	openRawWS(t, g, `{}`)
	_, res, _ := dialRaw(t, g.wsURL(), authHeader(), wsSubprotocol)
	if res == nil || res.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("a second session: %+v, want 503", res)
	}
}

// waitGauge waits until the gauge name of g's server is n.
func waitGauge(t *testing.T, g *httpGrove, name string, n int) {
	t.Helper()
	deadline := time.Now().Add(servertest.WaitLimit)
	for got := gauge(t, g.m, name); got != n; got = gauge(t, g.m, name) {
		if time.Now().After(deadline) {
			t.Fatalf("%s is %d after %v, want %d", name, got, servertest.WaitLimit, n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
