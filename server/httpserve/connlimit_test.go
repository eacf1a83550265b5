package httpserve

import (
	"bufio"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/grove-mcp/grove/internal/servertest"
	"github.com/grove-mcp/grove/server"
)

// dialFrom opens a TCP connection to addr from the loopback address from.
func dialFrom(t *testing.T, from, addr string) net.Conn {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}, Timeout: servertest.WaitLimit}
	c, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// refused reports whether grove answered c with its 503 and closed it.
func refused(t *testing.T, c net.Conn) bool {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(200 * time.Millisecond))
	res, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		return false // nothing said: an admitted connection waits for a request
	}
	res.Body.Close()
	return res.StatusCode == http.StatusServiceUnavailable && res.Header.Get("Retry-After") != ""
}

// A thousand idle connections from one client: grove holds perClient of
// them and refuses the rest with 503; another client still gets in, up to
// the total; a closed connection gives its place back.
func TestConnectionLimits(t *testing.T) {
	g := startHTTP(t, server.Config{Roots: []string{servertest.RealTemp(t)}}, Config{MaxConns: 30, MaxConnsPerClient: 20})
	addr := strings.TrimSuffix(strings.TrimPrefix(g.url, "http://"), "/mcp")
	var held []net.Conn
	refusedN := 0
	for range 1000 {
		c := dialFrom(t, "127.0.0.1", addr)
		if len(held) < 20 {
			held = append(held, c) // admitted ones answer nothing; no need to wait on each
			continue
		}
		if refused(t, c) {
			refusedN++
		}
		c.Close()
	}
	if refusedN != 980 {
		t.Errorf("%d of the 980 connections past the per-client limit refused", refusedN)
	}
	for _, c := range held[:3] {
		if refused(t, c) {
			t.Fatal("a connection within the limit was refused")
		}
	}
	for range 10 {
		if refused(t, dialFrom(t, "127.0.0.2", addr)) {
			t.Fatal("another client was refused below the total")
		}
	}
	if c := dialFrom(t, "127.0.0.3", addr); !refused(t, c) {
		t.Error("a connection past the total was admitted")
	}
	held[0].Close()
	deadline := time.Now().Add(servertest.WaitLimit)
	for {
		c := dialFrom(t, "127.0.0.3", addr)
		if !refused(t, c) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("a closed connection did not give its place back")
		}
	}
}
