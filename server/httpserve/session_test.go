package httpserve

import (
	"context"
	"encoding/json"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/grove-mcp/grove/internal/servertest"
	"github.com/grove-mcp/grove/roots"
	"github.com/grove-mcp/grove/server"
)

// Two sessions whose client roots are disjoint each see their own files and
// roots only, and hear only of their own subscriptions, even to the same URI
// once one's roots moved away from it.
func TestHTTPSessionsAreClientsOfTheirOwn(t *testing.T) {
	base := servertest.RealTemp(t)
	servertest.Mkdirs(t, base, "a", "b")
	a, b := filepath.Join(base, "a"), filepath.Join(base, "b")
	fa, fb := filepath.Join(a, "x.txt"), filepath.Join(b, "y.txt")
	servertest.Write(t, fa, "a")
	servertest.Write(t, fb, "b")
	g := startHTTP(t, server.Config{Roots: []string{base}}, Config{})
	csA, _, evA := connectHTTP(t, g, servertest.Legacy, a)
	csB, clientB, evB := connectHTTP(t, g, servertest.Legacy, a)
	ctx := context.Background()

	// Both start in a and subscribe to a's file; then B's roots move to b.
	for _, cs := range []*mcp.ClientSession{csA, csB} {
		if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: roots.URI(fa)}); err != nil {
			t.Fatal(err)
		}
	}
	servertest.SetClientRoots(t, csB, clientB, []string{a}, b)
	if err := csB.Subscribe(ctx, &mcp.SubscribeParams{URI: roots.URI(fb)}); err != nil {
		t.Fatal(err)
	}
	if got, want := servertest.RootPaths(t, csA), []string{a}; !slices.Equal(got, want) {
		t.Errorf("A's roots %v, want %v", got, want)
	}
	if got, want := servertest.RootPaths(t, csB), []string{b}; !slices.Equal(got, want) {
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

	servertest.Write(t, fa, "a changed")
	servertest.ExpectUpdated(t, evA, roots.URI(fa))
	// B hears of its own file, and never of a's, written before it.
	servertest.Write(t, fb, "b changed")
	servertest.ExpectUpdated(t, evB, roots.URI(fb), roots.URI(fa))
	if n := gauge(t, g.m, "grove_sessions"); n != 2 {
		t.Errorf("%d sessions, want 2", n)
	}
}

// A modern request's roots come with it: they narrow the ceiling for that
// request only, over HTTP as over stdio.
func TestHTTPModernRequestRoots(t *testing.T) {
	base := servertest.RealTemp(t)
	servertest.Mkdirs(t, base, "a", "b")
	fb := filepath.Join(base, "b", "y.txt")
	servertest.Write(t, fb, "b")
	g := startHTTP(t, server.Config{Roots: []string{base}}, Config{})
	hdr := map[string]string{"Authorization": "Bearer " + testToken, "MCP-Protocol-Version": servertest.Modern,
		"Mcp-Method": "resources/read", "Mcp-Name": roots.URI(fb)}
	read := func(clientRoot string) string {
		params := map[string]any{"uri": roots.URI(fb), "_meta": servertest.ModernRequestMeta(true), "requestState": "grove:roots",
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

// The client log records a session's requests cause reach that session
// alone, at the level it set: A's refused root is told to A, never to B.
func TestHTTPClientLogIsPerSession(t *testing.T) {
	base := servertest.RealTemp(t)
	servertest.Mkdirs(t, base, "ceiling", "outA", "outB")
	g := startHTTP(t, server.Config{Roots: []string{filepath.Join(base, "ceiling")}}, Config{})
	csA, clientA, _ := connectHTTP(t, g, servertest.Legacy)
	csB, clientB, evB := connectHTTP(t, g, servertest.Legacy)
	ctx := context.Background()
	for _, cs := range []*mcp.ClientSession{csA, csB} {
		if err := cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "debug"}); err != nil {
			t.Fatal(err)
		}
	}
	outA, outB := roots.URI(filepath.Join(base, "outA")), roots.URI(filepath.Join(base, "outB"))
	clientA.AddRoots(&mcp.Root{URI: outA})
	servertest.RootPaths(t, csA) // waits for A's roots
	clientB.AddRoots(&mcp.Root{URI: outB})
	servertest.RootPaths(t, csB)
	timeout := time.After(servertest.WaitLimit)
	for {
		select {
		case p := <-evB.Logged:
			data, _ := json.Marshal(p.Data)
			if strings.Contains(string(data), outA) {
				t.Fatalf("B was told of A's root: %s", data)
			}
			if strings.Contains(string(data), outB) {
				return
			}
		case <-timeout:
			t.Fatalf("B was not told of its own refused root within %v", servertest.WaitLimit)
		}
	}
}

// A file that appears in one session's roots changes that session's list
// alone: the other session is not told.
func TestHTTPListChangedIsPerSession(t *testing.T) {
	base := servertest.RealTemp(t)
	servertest.Mkdirs(t, base, "a", "b")
	a, b := filepath.Join(base, "a"), filepath.Join(base, "b")
	fb := filepath.Join(b, "y.txt")
	servertest.Write(t, fb, "b")
	g := startHTTP(t, server.Config{Roots: []string{base}}, Config{})
	csA, _, evA := connectHTTP(t, g, servertest.Legacy, a)
	csB, _, evB := connectHTTP(t, g, servertest.Legacy, b)
	servertest.RootPaths(t, csA) // both sessions' roots are in force, and each was told its list changed
	servertest.RootPaths(t, csB)
	servertest.ExpectListChanged(t, evA)
	servertest.ExpectListChanged(t, evB)
	if err := csB.Subscribe(context.Background(), &mcp.SubscribeParams{URI: roots.URI(fb)}); err != nil {
		t.Fatal(err)
	}
	servertest.PrimeUpdates(t, evB, fb, roots.URI(fb))
	servertest.DrainListChanged(evB)

	servertest.Write(t, filepath.Join(a, "new.txt"), "new")
	servertest.ExpectListChanged(t, evA)
	servertest.Write(t, fb, "after") // B's stream carries this update after anything about a/new.txt
	servertest.ExpectUpdated(t, evB, roots.URI(fb))
	if n := len(evB.ListChanged); n != 0 {
		t.Errorf("B was told %d times that its list changed by a file in A's roots", n)
	}
}
