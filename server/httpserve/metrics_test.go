package httpserve

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/grove-mcp/grove/internal/servertest"
	"github.com/grove-mcp/grove/metrics"
	"github.com/grove-mcp/grove/server"
)

const metricsTestToken = "metrics-test-token-0123456789"

// bearerRoundTripper adds the token to every request, as a configured client does.
type bearerRoundTripper struct{ token string }

func (b bearerRoundTripper) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// startMetricsHTTP runs grove --http on a loopback port with metrics and
// returns its base URL (http://127.0.0.1:port).
func startMetricsHTTP(t *testing.T, cfg server.Config) string {
	t.Helper()
	ready := make(chan net.Addr, 1)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		hc := Config{Addr: "127.0.0.1:0", Token: metricsTestToken, Ready: func(a net.Addr) { ready <- a }}
		if cfg.Metrics != nil { // as main does
			hc.Mount = map[string]http.Handler{"/metrics": cfg.Metrics.Handler()}
		}
		done <- Run(ctx, cfg, hc)
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case <-done:
		case <-time.After(servertest.WaitLimit):
			t.Error("Run did not return after its context ended")
		}
	})
	select {
	case a := <-ready:
		return "http://" + a.String()
	case err := <-done:
		t.Fatalf("Run: %v", err)
	case <-time.After(servertest.WaitLimit):
		t.Fatal("Run did not start")
	}
	return ""
}

func get(t *testing.T, url, token string) (int, string) {
	t.Helper()
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// /metrics over a real socket, in both eras: behind the token, showing a
// tools/call made over HTTP, with tool labels bounded by the server's own
// tools.
func TestHTTPMetrics(t *testing.T) {
	for _, era := range servertest.Eras {
		t.Run(era, func(t *testing.T) { testHTTPMetrics(t, era) })
	}
}

func testHTTPMetrics(t *testing.T, era string) {
	base := servertest.RealTemp(t)
	servertest.Write(t, filepath.Join(base, "a.txt"), "hello")
	servertest.CommitAll(t, base)
	url := startMetricsHTTP(t, server.Config{Roots: []string{base}, Metrics: metrics.New()})

	for _, tok := range []string{"", "wrong-token-wrong-token-wrong"} {
		if code, _ := get(t, url+"/metrics", tok); code != http.StatusUnauthorized {
			t.Errorf("token %q: status %d, want 401", tok, code)
		}
	}

	ctx := context.Background()
	client := mcp.NewClient(&mcp.Implementation{Name: "metrics-test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url + "/mcp",
		HTTPClient: &http.Client{Transport: bearerRoundTripper{metricsTestToken}}}, &mcp.ClientSessionOptions{ProtocolVersion: era})
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "git_status", Arguments: map[string]any{"repo_path": base}}); err != nil || res.IsError {
		t.Fatalf("git_status: %v %+v", err, res)
	}
	for i := range 50 {
		if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: fmt.Sprintf("made_up_%d", i)}); err == nil {
			t.Fatal("a made-up tool answered")
		}
	}

	code, body := get(t, url+"/metrics", metricsTestToken)
	if code != http.StatusOK {
		t.Fatalf("status %d, want 200:\n%s", code, body)
	}
	want := []string{
		`grove_tool_calls_total{outcome="ok",tool="git_status"} 1`,
		`grove_tool_calls_total{outcome="invalid_params",tool="other"} 50`,
		"grove_repositories_open 1",
	}
	if era == servertest.Legacy {
		want = append(want, `grove_requests_total{method="initialize",outcome="ok"} 1`, "grove_sessions 1")
	} else {
		want = append(want, `grove_requests_total{method="server/discover",outcome="ok"} 1`)
	}
	for _, w := range want {
		if !strings.Contains(body, w) {
			t.Errorf("scrape lacks %q", w)
		}
	}
	if strings.Contains(body, "made_up") {
		t.Error("a client's tool name became a label")
	}
	tools := make(map[string]bool)
	for _, line := range strings.Split(body, "\n") {
		if rest, ok := strings.CutPrefix(line, "grove_tool_calls_total{"); ok {
			_, tool, _ := strings.Cut(rest, `tool="`)
			tool, _, _ = strings.Cut(tool, `"`)
			tools[tool] = true
		}
	}
	if len(tools) != 2 || !tools["git_status"] || !tools["other"] {
		t.Errorf("tool labels %v, want git_status and other", tools)
	}
}

// Without metrics, /metrics is not there.
func TestHTTPNoMetrics(t *testing.T) {
	url := startMetricsHTTP(t, server.Config{Roots: []string{servertest.RealTemp(t)}})
	if code, _ := get(t, url+"/metrics", metricsTestToken); code != http.StatusNotFound {
		t.Errorf("status %d, want 404", code)
	}
}

// grove --metrics ADDR over stdio: a listener of its own, open on loopback
// without a token, behind the token when one is set, and refused beyond
// loopback without one.
func TestBinaryMetricsFlag(t *testing.T) {
	bin := servertest.GroveBinary(t)
	base := servertest.RealTemp(t)
	servertest.Write(t, filepath.Join(base, "a.txt"), "hello")
	servertest.CommitAll(t, base)
	for _, tt := range []struct {
		name  string
		token string
	}{{"no token", ""}, {"token", metricsTestToken}} {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), servertest.WaitLimit)
			defer cancel()
			cmd := exec.Command(bin, "--metrics", "127.0.0.1:0", "--root", base)
			cmd.Env = append(os.Environ(), TokenEnv+"="+tt.token)
			stderr, err := cmd.StderrPipe()
			if err != nil {
				t.Fatal(err)
			}
			client := mcp.NewClient(&mcp.Implementation{Name: "metrics-e2e", Version: "1"}, nil)
			cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: servertest.Legacy})
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			url := metricsURL(t, stderr)
			if res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "git_status", Arguments: map[string]any{"repo_path": base}}); err != nil || res.IsError {
				t.Fatalf("git_status: %v %+v", err, res)
			}
			if tt.token != "" {
				if code, _ := get(t, url, ""); code != http.StatusUnauthorized {
					t.Errorf("no token: status %d, want 401", code)
				}
			}
			code, body := get(t, url, tt.token)
			if code != http.StatusOK || !strings.Contains(body, `grove_tool_calls_total{outcome="ok",tool="git_status"} 1`) || !strings.Contains(body, "grove_sessions 1") {
				t.Errorf("status %d, want 200 with the tool call and one session:\n%s", code, body)
			}
		})
	}
	t.Run("beyond loopback without a token", func(t *testing.T) {
		cmd := exec.Command(bin, "--metrics", "0.0.0.0:0", "--root", base)
		cmd.Env = append(os.Environ(), TokenEnv+"=")
		out, err := cmd.CombinedOutput()
		if err == nil || !strings.Contains(string(out), "needs a token") {
			t.Errorf("err %v, output %q; want a refusal that asks for a token", err, out)
		}
	})
}

// metricsURL reads grove's log on r until it names the metrics URL, then
// drains the rest in the background.
func metricsURL(t *testing.T, r io.Reader) string {
	t.Helper()
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			if _, rest, ok := strings.Cut(sc.Text(), `msg="serving metrics" url=`); ok {
				url, _, _ := strings.Cut(rest, " ")
				select {
				case found <- url:
				default:
				}
			}
		}
	}()
	select {
	case url := <-found:
		return url
	case <-time.After(servertest.WaitLimit):
		t.Fatal("grove did not log its metrics URL")
	}
	return ""
}

// grove --http serves /metrics beside /mcp, behind the token.
func TestBinaryHTTPMetrics(t *testing.T) {
	bin := servertest.GroveBinary(t)
	cmd := exec.Command(bin, "--http", "127.0.0.1:0", "--root", servertest.RealTemp(t))
	cmd.Env = append(os.Environ(), TokenEnv+"="+metricsTestToken)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		cmd.Process.Signal(syscall.SIGTERM)
		cmd.Wait()
	}()
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if u, ok := strings.CutPrefix(sc.Text(), "grove: serving MCP over HTTP at "); ok {
				select {
				case found <- strings.TrimSuffix(u, "/mcp"):
				default:
				}
			}
		}
	}()
	var base string
	select {
	case base = <-found:
	case <-time.After(servertest.WaitLimit):
		t.Fatal("grove --http did not say where it listens")
	}
	if code, _ := get(t, base+"/metrics", ""); code != http.StatusUnauthorized {
		t.Errorf("no token: status %d, want 401", code)
	}
	if code, body := get(t, base+"/metrics", metricsTestToken); code != http.StatusOK || !strings.Contains(body, "grove_sessions 0") {
		t.Errorf("status %d, want 200 with grove_sessions:\n%s", code, body)
	}
}
