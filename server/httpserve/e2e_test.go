package httpserve

import (
	"bufio"
	"errors"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/grove-mcp/grove/internal/servertest"
)

// startHTTPBinary runs the built grove with --http on a free loopback port
// and returns it and its URL, read from the client configuration it prints.
func startHTTPBinary(t *testing.T, args ...string) (*exec.Cmd, string, *strings.Builder) {
	t.Helper()
	bin := servertest.GroveBinary(t)
	cmd := exec.Command(bin, append([]string{"--http", "127.0.0.1:0"}, args...)...)
	cmd.Env = append(os.Environ(), TokenEnv+"="+testToken)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	urls := make(chan string, 1)
	var log strings.Builder
	logged := make(chan struct{})
	go func() {
		defer close(logged)
		re := regexp.MustCompile(`serving MCP over HTTP at (\S+)`)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			log.WriteString(sc.Text() + "\n")
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				urls <- m[1]
			}
		}
		io.Copy(io.Discard, stderr)
	}()
	t.Cleanup(func() { <-logged })
	select {
	case url := <-urls:
		return cmd, url, &log
	case <-time.After(servertest.WaitLimit):
		t.Fatalf("grove --http printed no URL within %v", servertest.WaitLimit)
	}
	return nil, "", nil
}

// SIGTERM with a request in flight: the request completes, then grove exits 0.
func TestHTTPBinaryGracefulShutdown(t *testing.T) {
	cmd, url, _ := startHTTPBinary(t, "--root", servertest.RealTemp(t))
	rs := openRawSession(t, url, `{"roots":{"listChanged":true}}`)
	// list_roots waits for the client's roots, which this client never sends.
	slow := rs.post(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"list_roots","arguments":{}}}`)
	events := readEvents(slow.Body)
	nextEvent(t, events, "") // primed: the request is in flight
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if got := nextEvent(t, events, `"id":2`); !strings.Contains(got.data, `"result"`) {
		t.Errorf("the request in flight got %s, want its result", got.data)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case err := <-exited:
		if err != nil {
			t.Errorf("grove exited with %v, want 0", err)
		}
	case <-time.After(servertest.WaitLimit):
		t.Fatalf("grove did not exit within %v of SIGTERM", servertest.WaitLimit)
	}
}

// A bind beyond loopback needs an explicit token.
func TestHTTPBinaryRefusesOpenBindWithoutToken(t *testing.T) {
	bin := servertest.GroveBinary(t)
	cmd := exec.Command(bin, "--http", "0.0.0.0:0", "--root", servertest.RealTemp(t))
	cmd.Env = slicesWithout(os.Environ(), TokenEnv+"=")
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 2 || !strings.Contains(string(out), "--http-token-file") {
		t.Errorf("grove --http 0.0.0.0:0 without a token: %v\n%s\nwant exit 2 and a message naming --http-token-file", err, out)
	}
}

// A bind beyond loopback with a token still needs TLS, or --http-insecure;
// grove refuses before it listens.
func TestHTTPBinaryRefusesPlainOpenBind(t *testing.T) {
	bin := servertest.GroveBinary(t)
	cmd := exec.Command(bin, "--http", "0.0.0.0:0", "--root", servertest.RealTemp(t))
	cmd.Env = append(slicesWithout(os.Environ(), TokenEnv+"="), TokenEnv+"="+testToken)
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 || !strings.Contains(string(out), "--http-insecure") || !strings.Contains(string(out), "in clear") {
		t.Errorf("grove --http 0.0.0.0:0 without TLS: %v\n%s\nwant exit 1 and a message saying why, naming --http-insecure", err, out)
	}
}

func slicesWithout(env []string, prefix string) []string {
	var out []string
	for _, e := range env {
		if !strings.HasPrefix(e, prefix) {
			out = append(out, e)
		}
	}
	return out
}
