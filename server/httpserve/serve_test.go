package httpserve

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/grove-mcp/grove/internal/servertest"
	"github.com/grove-mcp/grove/metrics"
	"github.com/grove-mcp/grove/roots"
	"github.com/grove-mcp/grove/server"
)

const testToken = "test-token-0123456789abcdef"

// httpGrove is a grove serving HTTP on a loopback port for a test.
type httpGrove struct {
	s   *server.Server
	m   *metrics.Metrics
	f   *front
	url string
}

// startHTTP serves cfg over HTTP on 127.0.0.1 until the test ends, as
// Run does, keeping the pieces for the test to look at.
func startHTTP(t testing.TB, cfg server.Config, hc Config) *httpGrove {
	t.Helper()
	cfg.MultiSession = true
	cfg.SessionID = hc.newSessionID
	if cfg.Metrics == nil {
		cfg.Metrics = metrics.New() // for waitSubscriptions
	}
	s, err := server.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hc.Token = testToken
	hc.defaults()
	f := newFront(s, cfg, hc, ln.Addr().String())
	if hc.AuthIssuer != "" {
		v, err := newOAuthVerifier(context.Background(), hc, slog.New(slog.DiscardHandler))
		if err != nil {
			t.Fatal(err)
		}
		f.useOAuth(v)
	}
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
		case <-time.After(servertest.WaitLimit):
			t.Errorf("the server did not shut down within %v", servertest.WaitLimit)
		}
		s.Close()
	})
	return &httpGrove{s: s, m: cfg.Metrics, f: f, url: "http://" + ln.Addr().String() + "/mcp"}
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
func connectHTTP(t *testing.T, g *httpGrove, era string, clientRoots ...string) (*mcp.ClientSession, *mcp.Client, servertest.Events) {
	t.Helper()
	tr := &mcp.StreamableClientTransport{Endpoint: g.url, HTTPClient: &http.Client{Transport: bearer{testToken}}}
	return connectOver(t, tr, era, clientRoots...)
}

// connectOver connects an SDK client of era over tr, as connectHTTP does.
func connectOver(t *testing.T, tr mcp.Transport, era string, clientRoots ...string) (*mcp.ClientSession, *mcp.Client, servertest.Events) {
	t.Helper()
	ev := servertest.NewEvents()
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, &mcp.ClientOptions{
		ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
			ev.Updated <- req.Params.URI
		},
		ResourceListChangedHandler: func(context.Context, *mcp.ResourceListChangedRequest) {
			ev.ListChanged <- struct{}{}
		},
		LoggingMessageHandler: func(_ context.Context, req *mcp.LoggingMessageRequest) {
			ev.Logged <- req.Params
		},
	})
	for _, r := range clientRoots {
		client.AddRoots(&mcp.Root{URI: roots.URI(r)})
	}
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
	g := startHTTP(t, server.Config{Roots: []string{servertest.RealTemp(t)}}, Config{AllowOrigins: []string{"https://ok.example"},
		Mount: map[string]http.Handler{"/extra": extra}})
	auth := "Bearer " + testToken
	own := strings.TrimSuffix(strings.TrimPrefix(g.url, "http://"), "/mcp") // 127.0.0.1:port
	_, port, _ := net.SplitHostPort(own)
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
		{"own origin", map[string]string{"Authorization": auth, "Origin": "http://" + own}, http.StatusOK, ""},
		{"own origin by name", map[string]string{"Authorization": auth, "Host": "localhost:" + port, "Origin": "http://localhost:" + port}, http.StatusOK, ""},
		{"loopback origin, other port", map[string]string{"Authorization": auth, "Origin": "http://127.0.0.1:1"}, http.StatusForbidden, "Origin not allowed"},
		{"own address over https", map[string]string{"Authorization": auth, "Origin": "https://" + own}, http.StatusForbidden, "Origin not allowed"},
		{"rebinding name as its own origin", map[string]string{"Authorization": auth, "Host": "evil.example:" + port, "Origin": "http://evil.example:" + port}, http.StatusForbidden, "Host header not allowed"},
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
	dir := servertest.RealTemp(t)
	g := startHTTP(t, server.Config{Roots: []string{dir}}, Config{})
	for _, era := range servertest.Eras {
		t.Run(era, func(t *testing.T) {
			cs, _, ev := connectHTTP(t, g, era)
			f := filepath.Join(dir, era+".txt")
			servertest.Write(t, f, "hello")
			res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: roots.URI(f)})
			if err != nil {
				t.Fatal(err)
			}
			if got := res.Contents[0].Text; got != "hello" {
				t.Errorf("read %q, want hello", got)
			}
			if got, want := servertest.RootPaths(t, cs), []string{dir}; !slices.Equal(got, want) {
				t.Errorf("roots %v, want %v", got, want)
			}
			if err := cs.Subscribe(context.Background(), &mcp.SubscribeParams{URI: roots.URI(f)}); err != nil {
				t.Fatal(err)
			}
			waitSubscriptions(t, g.m, 1)
			servertest.PrimeUpdates(t, ev, f, roots.URI(f))
			if err := cs.Unsubscribe(context.Background(), &mcp.UnsubscribeParams{URI: roots.URI(f)}); err != nil {
				t.Fatal(err)
			}
			waitSubscriptions(t, g.m, 0)
		})
	}
}

func TestHTTPNeedsRoots(t *testing.T) {
	err := Run(context.Background(), server.Config{}, Config{Addr: "127.0.0.1:0", Token: testToken})
	if !errors.Is(err, ErrNoRoots) {
		t.Errorf("Run without roots: %v, want %v", err, ErrNoRoots)
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
