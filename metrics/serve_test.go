package metrics

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// serve starts m's listener on a loopback port and returns its URL.
func serve(t *testing.T, m *Metrics, token string) string {
	t.Helper()
	ln, err := Listen("127.0.0.1:0", token)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- m.Serve(ctx, ln, ServeOptions{Token: token}) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("Serve: %v", err)
			}
		case <-time.After(30 * time.Second):
			t.Error("Serve did not return after its context ended")
		}
	})
	return "http://" + ln.Addr().String() + "/metrics"
}

func scrape(t *testing.T, url string, header http.Header, host string) (int, string, http.Header) {
	t.Helper()
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header = header
	if host != "" {
		req.Host = host
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body), resp.Header
}

func TestServeChecks(t *testing.T) {
	const token = "a-token-of-sixteen-or-more"
	m := New()
	m.ObserveTool("git_status", true, OutcomeOK, time.Millisecond)
	url := serve(t, m, token)
	bearer := func(tok string) http.Header { return http.Header{"Authorization": {"Bearer " + tok}} }
	for _, tt := range []struct {
		name   string
		header http.Header
		host   string
		want   int
	}{
		{"no token", http.Header{}, "", http.StatusUnauthorized},
		{"wrong token", bearer("not-the-token-at-all"), "", http.StatusUnauthorized},
		{"token as basic", http.Header{"Authorization": {"Basic " + token}}, "", http.StatusUnauthorized},
		{"token", bearer(token), "", http.StatusOK},
		{"lower-case scheme", http.Header{"Authorization": {"bearer " + token}}, "", http.StatusOK},
		{"rebinding host", bearer(token), "evil.example:9090", http.StatusForbidden},
		{"localhost", bearer(token), "localhost", http.StatusOK},
		{"origin", http.Header{"Authorization": {"Bearer " + token}, "Origin": {"https://evil.example"}}, "", http.StatusForbidden},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, body, h := scrape(t, url, tt.header, tt.host)
			if code != tt.want {
				t.Fatalf("status %d, want %d: %s", code, tt.want, body)
			}
			switch code {
			case http.StatusUnauthorized:
				if !strings.HasPrefix(h.Get("WWW-Authenticate"), "Bearer") {
					t.Errorf("WWW-Authenticate = %q, want Bearer", h.Get("WWW-Authenticate"))
				}
			case http.StatusOK:
				if !strings.Contains(body, `grove_tool_calls_total{outcome="ok",tool="git_status"} 1`) {
					t.Errorf("scrape lacks the tool call:\n%s", body)
				}
			}
		})
	}
}

func TestServeLoopbackWithoutToken(t *testing.T) {
	url := serve(t, New(), "")
	if code, body, _ := scrape(t, url, http.Header{}, ""); code != http.StatusOK || !strings.Contains(body, "grove_sessions 0") {
		t.Errorf("status %d, want 200 with grove_sessions:\n%s", code, body)
	}
	if code, _, _ := scrape(t, strings.TrimSuffix(url, "/metrics")+"/mcp", http.Header{}, ""); code != http.StatusNotFound {
		t.Errorf("/mcp on the metrics listener: status %d, want 404", code)
	}
}

func TestListenRefusesBeyondLoopback(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:0", ":0", "[::]:0", "192.0.2.1:0", "example.com:0"} {
		_, err := Listen(addr, "")
		if !errors.Is(err, ErrNeedsToken) {
			t.Errorf("Listen(%q) without a token: %v, want ErrNeedsToken", addr, err)
		}
	}
	ln, err := Listen("0.0.0.0:0", "a-token-of-sixteen-or-more")
	if err != nil {
		t.Fatalf("with a token: %v", err)
	}
	ln.Close()
}

func TestHostAllowed(t *testing.T) {
	for _, tt := range []struct {
		host, bound string
		want        bool
	}{
		{"127.0.0.1:9090", "127.0.0.1:9090", true},
		{"localhost:9090", "127.0.0.1:9090", true},
		{"[::1]:9090", "127.0.0.1:9090", true},
		{"evil.example:9090", "127.0.0.1:9090", false},
		{"192.0.2.7:9090", "192.0.2.7:9090", true},
		{"0.0.0.0:9090", "0.0.0.0:9090", false},
		{"", "127.0.0.1:9090", false},
	} {
		if got := hostAllowed(tt.host, tt.bound); got != tt.want {
			t.Errorf("hostAllowed(%q, %q) = %v, want %v", tt.host, tt.bound, got, tt.want)
		}
	}
}
