package servertest

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/grove-mcp/grove/roots"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Events collects what a client is told: the URIs of resource updates, the
// list_changed notifications and the log messages.
type Events struct {
	Updated     chan string
	ListChanged chan struct{}
	Logged      chan *mcp.LoggingMessageParams
}

// NewEvents returns Events with room for 1,000 of each.
func NewEvents() Events {
	return Events{Updated: make(chan string, 1000), ListChanged: make(chan struct{}, 1000),
		Logged: make(chan *mcp.LoggingMessageParams, 1000)}
}

// ExpectUpdated waits for an update of want; an update of any URI in
// forbidden before it fails the test.
func ExpectUpdated(t testing.TB, ev Events, want string, forbidden ...string) {
	t.Helper()
	timeout := time.After(WaitLimit)
	for {
		select {
		case got := <-ev.Updated:
			if got == want {
				return
			}
			if slices.Contains(forbidden, got) {
				t.Fatalf("got an update for %s, which nobody subscribed to", got)
			}
		case <-timeout:
			t.Fatalf("no update for %s within %v", want, WaitLimit)
		}
	}
}

// PrimeUpdates writes path until an update of uri arrives, then waits until
// the updates stop for a while. A modern client's subscription reaches the
// SDK's own record just after grove's, and under load a first change can fall
// in between; the steps that follow must each see their own update.
func PrimeUpdates(t testing.TB, ev Events, path, uri string) {
	t.Helper()
	deadline := time.Now().Add(WaitLimit)
	for i := 0; ; i++ {
		Write(t, path, fmt.Sprintf("prime %d", i))
		select {
		case got := <-ev.Updated:
			if got == uri {
				DrainUpdates(ev, 300*time.Millisecond)
				return
			}
		case <-time.After(time.Second):
		}
		if time.Now().After(deadline) {
			t.Fatalf("no update for %s within %v of writes", uri, WaitLimit)
		}
	}
}

// DrainUpdates discards updates until none has come for quiet.
func DrainUpdates(ev Events, quiet time.Duration) {
	for {
		select {
		case <-ev.Updated:
		case <-time.After(quiet):
			return
		}
	}
}

// DrainListChanged discards the list_changed notifications already come.
func DrainListChanged(ev Events) {
	for {
		select {
		case <-ev.ListChanged:
		default:
			return
		}
	}
}

// ExpectListChanged waits for a list_changed notification.
func ExpectListChanged(t testing.TB, ev Events) {
	t.Helper()
	select {
	case <-ev.ListChanged:
	case <-time.After(WaitLimit):
		t.Fatal("no list_changed")
	}
}

// ToolOutput calls the tool name without arguments and returns its
// structured output as a T; an error or an error result fails the test.
func ToolOutput[T any](t testing.TB, cs *mcp.ClientSession, name string) T {
	t.Helper()
	var out T
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name})
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError {
		t.Fatalf("%s failed: %v", name, res.Content)
	}
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// RootPaths returns the paths list_roots answers, sorted. It waits for the
// client's roots that are on their way.
func RootPaths(t testing.TB, cs *mcp.ClientSession) []string {
	t.Helper()
	out := ToolOutput[struct {
		Roots []struct {
			Path string `json:"path"`
		} `json:"roots"`
	}](t, cs, "list_roots")
	var ps []string
	for _, r := range out.Roots {
		ps = append(ps, r.Path)
	}
	slices.Sort(ps)
	return ps
}

// SetClientRoots changes the client's roots from from to to (adding first,
// so that the roots never fall back to the operator's while they change) and
// waits until the server applied them: list_roots waits for the roots/list
// in flight.
func SetClientRoots(t testing.TB, cs *mcp.ClientSession, client *mcp.Client, from []string, to ...string) {
	t.Helper()
	var add []*mcp.Root
	for _, d := range to {
		add = append(add, &mcp.Root{URI: roots.URI(d)})
	}
	client.AddRoots(add...)
	var remove []string
	for _, d := range from {
		if !slices.Contains(to, d) {
			remove = append(remove, roots.URI(d))
		}
	}
	client.RemoveRoots(remove...)
	want := slices.Sorted(slices.Values(to))
	if got := RootPaths(t, cs); !slices.Equal(got, want) {
		t.Fatalf("roots %v, want %v", got, want)
	}
}

// ModernRequestMeta is the _meta of a modern request; with roots, the client
// declares the roots capability.
func ModernRequestMeta(roots bool) map[string]any {
	caps := map[string]any{}
	if roots {
		caps["roots"] = map[string]any{}
	}
	return map[string]any{
		mcp.MetaKeyProtocolVersion:    Modern,
		mcp.MetaKeyClientCapabilities: caps,
		mcp.MetaKeyClientInfo:         map[string]any{"name": "raw", "version": "1"},
	}
}
