package server

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/grove-mcp/grove/roots"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// events collects what a client is told.
type events struct {
	updated     chan string
	listChanged chan struct{}
}

// connectWatching is connect with a client that records notifications.
func connectWatching(t *testing.T, cfg Config, era string, clientRoots ...string) (*mcp.ClientSession, *mcp.Client, events, *Server) {
	t.Helper()
	ev := events{updated: make(chan string, 1000), listChanged: make(chan struct{}, 1000)}
	cs, client, s := connectWith(t, cfg, era, &mcp.ClientOptions{
		ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
			ev.updated <- req.Params.URI
		},
		ResourceListChangedHandler: func(context.Context, *mcp.ResourceListChangedRequest) {
			ev.listChanged <- struct{}{}
		},
	}, clientRoots...)
	return cs, client, ev, s
}

const waitLimit = 30 * time.Second

// expectUpdated waits for an update of want; an update of any URI in
// forbidden before it fails the test.
func expectUpdated(t *testing.T, ev events, want string, forbidden ...string) {
	t.Helper()
	timeout := time.After(waitLimit)
	for {
		select {
		case got := <-ev.updated:
			if got == want {
				return
			}
			for _, f := range forbidden {
				if got == f {
					t.Fatalf("got an update for %s, which nobody subscribed to", got)
				}
			}
		case <-timeout:
			t.Fatalf("no update for %s within %v", want, waitLimit)
		}
	}
}

func write(t testing.TB, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestSubscriptionsNotifyOnlySubscribers(t *testing.T) {
	for _, era := range eras {
		t.Run(era, func(t *testing.T) {
			dir := realTemp(t)
			// A batch's updates go out in URI order, so a silent file must sort
			// before the awaited one to be caught: 0.txt < a.txt < z.txt.
			a, b, z := filepath.Join(dir, "a.txt"), filepath.Join(dir, "0.txt"), filepath.Join(dir, "z.txt")
			write(t, a, "a")
			write(t, b, "b")
			write(t, z, "z")
			cs, _, ev, _ := connectWatching(t, Config{Roots: []string{dir}}, era)
			ctx := context.Background()
			if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: roots.URI(a)}); err != nil {
				t.Fatal(err)
			}

			steps := []struct {
				name   string
				change func()
			}{
				{"write", func() { write(t, a, "a2") }},
				{"unsubscribed sibling then write", func() { write(t, b, "b2"); write(t, a, "a3") }},
				{"truncate", func() { os.Truncate(a, 0) }},
				{"atomic rename-over save", func() {
					tmp := filepath.Join(dir, ".a.txt.tmp")
					write(t, tmp, "saved")
					if err := os.Rename(tmp, a); err != nil {
						t.Fatal(err)
					}
				}},
				{"delete", func() { os.Remove(a) }},
				{"re-create", func() { write(t, a, "again") }},
			}
			for _, st := range steps {
				st.change()
				expectUpdated(t, ev, roots.URI(a), roots.URI(b))
			}

			if err := cs.Unsubscribe(ctx, &mcp.UnsubscribeParams{URI: roots.URI(a)}); err != nil {
				t.Fatal(err)
			}
			if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: roots.URI(z)}); err != nil {
				t.Fatal(err)
			}
			write(t, a, "after unsubscribe")
			write(t, z, "z2")
			expectUpdated(t, ev, roots.URI(z), roots.URI(a), roots.URI(b))
		})
	}
}

func TestSubscribeOutsideRootsRefused(t *testing.T) {
	base := realTemp(t)
	mkdirs(t, base, "root", "outside")
	outside := filepath.Join(base, "outside", "x.txt")
	write(t, outside, "x")
	for _, era := range eras {
		t.Run(era, func(t *testing.T) {
			cs, _, _, s := connectWatching(t, Config{Roots: []string{filepath.Join(base, "root")}}, era)
			for _, uri := range []string{
				roots.URI(outside),
				roots.URI(filepath.Join(base, "root")) + "/../outside/x.txt",
				roots.URI(filepath.Join(base, "root")) + "/%2e%2e/outside/x.txt",
			} {
				// A modern client's Subscribe opens a listen stream in the background and
				// does not report its refusal; the legacy one must.
				err := cs.Subscribe(context.Background(), &mcp.SubscribeParams{URI: uri})
				if era == legacy && err == nil {
					t.Errorf("subscribe %s: accepted", uri)
				}
			}
			// Inside files still subscribe; nothing outside was recorded.
			inside := roots.URI(filepath.Join(base, "root", "in.txt"))
			if err := cs.Subscribe(context.Background(), &mcp.SubscribeParams{URI: inside}); err != nil {
				t.Fatal(err)
			}
			waitSubscribed(t, s, 1)
			s.notify.mu.Lock()
			defer s.notify.mu.Unlock()
			for abs := range s.notify.subs {
				if abs != filepath.Join(base, "root", "in.txt") {
					t.Errorf("subscription recorded for %s", abs)
				}
			}
		})
	}
}

// waitSubscribed waits until the server holds n subscribed paths: a modern
// client's Subscribe returns before the server has processed it.
func waitSubscribed(t *testing.T, s *Server, n int) {
	t.Helper()
	deadline := time.Now().Add(waitLimit)
	for {
		s.notify.mu.Lock()
		got := len(s.notify.subs)
		s.notify.mu.Unlock()
		if got == n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d subscriptions after %v, want %d", got, waitLimit, n)
		}
		time.Sleep(time.Millisecond)
	}
}

func TestListChangedOnCreateAndDelete(t *testing.T) {
	for _, era := range eras {
		t.Run(era, func(t *testing.T) {
			dir := realTemp(t)
			cs, _, ev, _ := connectWatching(t, Config{Roots: []string{dir}}, era)
			// The client opts in to list_changed by subscribing to something (modern: a listen stream).
			if err := cs.Subscribe(context.Background(), &mcp.SubscribeParams{URI: roots.URI(filepath.Join(dir, "x"))}); err != nil {
				t.Fatal(err)
			}
			for _, change := range []func(){
				func() { write(t, filepath.Join(dir, "new.txt"), "n") },
				func() { os.Remove(filepath.Join(dir, "new.txt")) },
			} {
				change()
				select {
				case <-ev.listChanged:
				case <-time.After(waitLimit):
					t.Fatal("no list_changed")
				}
			}
		})
	}
}

// A roots change re-scopes everything: subscriptions outside the new roots
// are dropped, and files in the new roots are watched.
func TestRootsChangeRescopesSubscriptions(t *testing.T) {
	base := realTemp(t)
	mkdirs(t, base, "a", "b")
	fa, fb := filepath.Join(base, "a", "f.txt"), filepath.Join(base, "b", "f.txt")
	write(t, fa, "a")
	write(t, fb, "b")

	cs, client, ev, s := connectWatching(t, Config{Roots: []string{base}}, legacy, filepath.Join(base, "a"))
	listRoots(t, cs) // waits for the client's roots
	if err := cs.Subscribe(context.Background(), &mcp.SubscribeParams{URI: roots.URI(fa)}); err != nil {
		t.Fatal(err)
	}
	if err := cs.Subscribe(context.Background(), &mcp.SubscribeParams{URI: roots.URI(fb)}); err == nil {
		t.Fatal("subscribed to a file outside the client's roots")
	}

	client.AddRoots(&mcp.Root{URI: roots.URI(filepath.Join(base, "b"))})
	client.RemoveRoots(roots.URI(filepath.Join(base, "a")))
	listRoots(t, cs) // waits for the new roots
	waitSubscribed(t, s, 0)
	if err := cs.Subscribe(context.Background(), &mcp.SubscribeParams{URI: roots.URI(fb)}); err != nil {
		t.Fatal(err)
	}
	write(t, fa, "a2")
	write(t, fb, "b2")
	expectUpdated(t, ev, roots.URI(fb), roots.URI(fa))
}

// list_changed waits for a session that finished its handshake.
func TestListChangedWaitsForInitialize(t *testing.T) {
	s, err := New(Config{Roots: []string{realTemp(t)}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	st, ct := mcp.NewInMemoryTransports()
	ss, err := s.MCP().Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	if s.anyInitialized() {
		t.Fatal("a session counts as initialized before its handshake")
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(context.Background(), ct, &mcp.ClientSessionOptions{ProtocolVersion: legacy})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	if !s.anyInitialized() {
		t.Error("no session counts as initialized after the handshake")
	}
}

// Past the watch limit grove keeps working: list_roots reports the
// degradation, and a subscribed file in an unwatched directory is polled.
func TestDegradedWatching(t *testing.T) {
	dir := realTemp(t)
	mkdirs(t, dir, "a", "b", "c")
	deep := filepath.Join(dir, "c", "f.txt")
	write(t, deep, "0")
	cs, _, ev, _ := connectWatching(t, Config{Roots: []string{dir}, MaxWatches: 2}, legacy)
	if err := cs.Subscribe(context.Background(), &mcp.SubscribeParams{URI: roots.URI(deep)}); err != nil {
		t.Fatal(err)
	}
	out := listRoots(t, cs)
	if !strings.Contains(out.Watching, "degraded") {
		t.Errorf("list_roots watching = %q, want it to report the degradation", out.Watching)
	}
	write(t, deep, "changed size")
	expectUpdated(t, ev, roots.URI(deep))
}
