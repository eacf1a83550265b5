package server

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/grove-mcp/grove/internal/servertest"
	"github.com/grove-mcp/grove/roots"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// connectWatching is connect with a client that records notifications.
func connectWatching(t *testing.T, cfg Config, era string, clientRoots ...string) (*mcp.ClientSession, *mcp.Client, servertest.Events, *Server) {
	t.Helper()
	ev := servertest.NewEvents()
	cs, client, s := connectWith(t, cfg, era, &mcp.ClientOptions{
		ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
			ev.Updated <- req.Params.URI
		},
		ResourceListChangedHandler: func(context.Context, *mcp.ResourceListChangedRequest) {
			ev.ListChanged <- struct{}{}
		},
		LoggingMessageHandler: func(_ context.Context, req *mcp.LoggingMessageRequest) {
			ev.Logged <- req.Params
		},
	}, clientRoots...)
	return cs, client, ev, s
}

// waitSubscribedTo waits until the server's subscriptions are to exactly
// the files want: a modern client's Subscribe and Unsubscribe return before
// the server has processed them. (The SDK records a subscription just after
// grove does, microseconds before any change could be batched.)
func waitSubscribedTo(t *testing.T, s *Server, want ...string) {
	t.Helper()
	slices.Sort(want)
	deadline := time.Now().Add(servertest.WaitLimit)
	for {
		s.notify.mu.Lock()
		var got []string
		for abs := range s.notify.subs {
			got = append(got, abs)
		}
		s.notify.mu.Unlock()
		slices.Sort(got)
		if slices.Equal(got, want) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("subscribed to %v after %v, want %v", got, servertest.WaitLimit, want)
		}
		time.Sleep(time.Millisecond)
	}
}

func TestSubscriptionsNotifyOnlySubscribers(t *testing.T) {
	for _, era := range servertest.Eras {
		t.Run(era, func(t *testing.T) {
			dir := servertest.RealTemp(t)
			// A batch's updates go out in URI order, so a silent file must sort
			// before the awaited one to be caught: 0.txt < a.txt < z.txt.
			a, b, z := filepath.Join(dir, "a.txt"), filepath.Join(dir, "0.txt"), filepath.Join(dir, "z.txt")
			servertest.Write(t, a, "a")
			servertest.Write(t, b, "b")
			servertest.Write(t, z, "z")
			cs, _, ev, s := connectWatching(t, Config{Roots: []string{dir}}, era)
			ctx := context.Background()
			if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: roots.URI(a)}); err != nil {
				t.Fatal(err)
			}
			waitSubscribedTo(t, s, a)
			servertest.PrimeUpdates(t, ev, a, roots.URI(a))

			steps := []struct {
				name   string
				change func()
			}{
				{"write", func() { servertest.Write(t, a, "a2") }},
				{"unsubscribed sibling then write", func() { servertest.Write(t, b, "b2"); servertest.Write(t, a, "a3") }},
				{"truncate", func() { os.Truncate(a, 0) }},
				{"atomic rename-over save", func() {
					tmp := filepath.Join(dir, ".a.txt.tmp")
					servertest.Write(t, tmp, "saved")
					if err := os.Rename(tmp, a); err != nil {
						t.Fatal(err)
					}
				}},
				{"delete", func() { os.Remove(a) }},
				{"re-create", func() { servertest.Write(t, a, "again") }},
			}
			for _, st := range steps {
				st.change()
				servertest.ExpectUpdated(t, ev, roots.URI(a), roots.URI(b))
			}

			if err := cs.Unsubscribe(ctx, &mcp.UnsubscribeParams{URI: roots.URI(a)}); err != nil {
				t.Fatal(err)
			}
			if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: roots.URI(z)}); err != nil {
				t.Fatal(err)
			}
			waitSubscribedTo(t, s, z)
			servertest.PrimeUpdates(t, ev, z, roots.URI(z))
			servertest.Write(t, a, "after unsubscribe")
			servertest.Write(t, z, "z2")
			servertest.ExpectUpdated(t, ev, roots.URI(z), roots.URI(a), roots.URI(b))
		})
	}
}

func TestSubscribeOutsideRootsRefused(t *testing.T) {
	base := servertest.RealTemp(t)
	servertest.Mkdirs(t, base, "root", "outside")
	outside := filepath.Join(base, "outside", "x.txt")
	servertest.Write(t, outside, "x")
	for _, era := range servertest.Eras {
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
				if era == servertest.Legacy && err == nil {
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
	deadline := time.Now().Add(servertest.WaitLimit)
	for {
		s.notify.mu.Lock()
		got := len(s.notify.subs)
		s.notify.mu.Unlock()
		if got == n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d subscriptions after %v, want %d", got, servertest.WaitLimit, n)
		}
		time.Sleep(time.Millisecond)
	}
}

func TestListChangedOnCreateAndDelete(t *testing.T) {
	for _, era := range servertest.Eras {
		t.Run(era, func(t *testing.T) {
			dir := servertest.RealTemp(t)
			cs, _, ev, _ := connectWatching(t, Config{Roots: []string{dir}}, era)
			// The client opts in to list_changed by subscribing to something (modern: a listen stream).
			if err := cs.Subscribe(context.Background(), &mcp.SubscribeParams{URI: roots.URI(filepath.Join(dir, "x"))}); err != nil {
				t.Fatal(err)
			}
			for _, change := range []func(){
				func() { servertest.Write(t, filepath.Join(dir, "new.txt"), "n") },
				func() { os.Remove(filepath.Join(dir, "new.txt")) },
			} {
				change()
				select {
				case <-ev.ListChanged:
				case <-time.After(servertest.WaitLimit):
					t.Fatal("no list_changed")
				}
			}
		})
	}
}

// A roots change re-scopes everything: the client is told its resource list
// changed; a subscription outside the new roots goes dormant (kept, silent,
// logged for the client), and wakes, with an update, when the roots include
// it again; files in the new roots are watched.
func TestRootsChangeMakesSubscriptionsDormant(t *testing.T) {
	base := servertest.RealTemp(t)
	servertest.Mkdirs(t, base, "a", "b")
	dirA, dirB := filepath.Join(base, "a"), filepath.Join(base, "b")
	fa, fb := filepath.Join(dirA, "f.txt"), filepath.Join(dirB, "f.txt")
	servertest.Write(t, fa, "a")
	servertest.Write(t, fb, "b")

	cs, client, ev, _ := connectWatching(t, Config{Roots: []string{base}}, servertest.Legacy, dirA)
	listRoots(t, cs) // waits for the client's roots
	ctx := context.Background()
	if err := cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "info"}); err != nil {
		t.Fatal(err)
	}
	if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: roots.URI(fa)}); err != nil {
		t.Fatal(err)
	}
	if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: roots.URI(fb)}); err == nil {
		t.Fatal("subscribed to a file outside the client's roots")
	}
	servertest.SetClientRoots(t, cs, client, []string{dirA}, dirA) // the client has handled every notification before it
	servertest.DrainListChanged(ev)

	servertest.SetClientRoots(t, cs, client, []string{dirA}, dirB)
	servertest.ExpectListChanged(t, ev)
	expectLogged(t, ev, "subscription dormant", roots.URI(fa))
	if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: roots.URI(fb)}); err != nil {
		t.Fatal(err)
	}
	servertest.Write(t, fa, "a2") // dormant: no update, though fa sorts first
	servertest.Write(t, fb, "b2")
	servertest.ExpectUpdated(t, ev, roots.URI(fb), roots.URI(fa))

	servertest.SetClientRoots(t, cs, client, []string{dirB}, dirA)
	servertest.ExpectListChanged(t, ev)
	expectLogged(t, ev, "subscription resumed", roots.URI(fa))
	servertest.ExpectUpdated(t, ev, roots.URI(fa))                                      // it may have changed while dormant
	if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: roots.URI(fa)}); err != nil { // again: answered once a/ is watched
		t.Fatal(err)
	}
	servertest.Write(t, fa, "a3 after waking")
	servertest.ExpectUpdated(t, ev, roots.URI(fa))
}

// The same roots again change nothing a client lists: no list_changed. A
// count is taken after a roots/list the client answered: the client handles
// the notifications sent before it first.
func TestSameRootsSendNoListChanged(t *testing.T) {
	base := servertest.RealTemp(t)
	servertest.Mkdirs(t, base, "a", "b")
	dirA, dirB := filepath.Join(base, "a"), filepath.Join(base, "b")
	cs, client, ev, _ := connectWatching(t, Config{Roots: []string{base}}, servertest.Legacy, dirA)
	listRoots(t, cs)
	servertest.SetClientRoots(t, cs, client, []string{dirA}, dirA) // announced again, unchanged
	before := len(ev.ListChanged)
	servertest.SetClientRoots(t, cs, client, []string{dirA}, dirA)
	servertest.SetClientRoots(t, cs, client, []string{dirA}, dirA)
	if n := len(ev.ListChanged); n != before {
		t.Errorf("%d list_changed notifications for the same roots", n-before)
	}
	servertest.DrainListChanged(ev)
	servertest.SetClientRoots(t, cs, client, []string{dirA}, dirB)
	servertest.ExpectListChanged(t, ev)
}

// expectLogged waits for a client log record whose message starts with msg
// and whose uri is uri.
func expectLogged(t *testing.T, ev servertest.Events, msg, uri string) {
	t.Helper()
	timeout := time.After(servertest.WaitLimit)
	for {
		select {
		case p := <-ev.Logged:
			data, _ := p.Data.(map[string]any)
			if m, _ := data["msg"].(string); strings.HasPrefix(m, msg) && data["uri"] == uri {
				return
			}
		case <-timeout:
			t.Fatalf("no %q record for %s within %v", msg, uri, servertest.WaitLimit)
		}
	}
}

// list_changed waits for a session that finished its handshake.
func TestListChangedWaitsForInitialize(t *testing.T) {
	s, err := New(Config{Roots: []string{servertest.RealTemp(t)}})
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
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(context.Background(), ct, &mcp.ClientSessionOptions{ProtocolVersion: servertest.Legacy})
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
	dir := servertest.RealTemp(t)
	servertest.Mkdirs(t, dir, "a", "b", "c")
	deep := filepath.Join(dir, "c", "f.txt")
	servertest.Write(t, deep, "0")
	cs, _, ev, _ := connectWatching(t, Config{Roots: []string{dir}, MaxWatches: 2}, servertest.Legacy)
	if err := cs.Subscribe(context.Background(), &mcp.SubscribeParams{URI: roots.URI(deep)}); err != nil {
		t.Fatal(err)
	}
	out := listRoots(t, cs)
	if !strings.Contains(out.Watching, "degraded") {
		t.Errorf("list_roots watching = %q, want it to report the degradation", out.Watching)
	}
	servertest.Write(t, deep, "changed size")
	servertest.ExpectUpdated(t, ev, roots.URI(deep))
}

// No update tells of a change outside the roots: a subscribed file whose
// directory is swapped for a symlink out of the roots is silent (here it is
// polled, its directory being past the watch limit, and polling reaches
// through the link).
func TestNoUpdateThroughSymlinkOut(t *testing.T) {
	base := servertest.RealTemp(t)
	servertest.Mkdirs(t, base, "root/a", "root/d", "root/e", "outside")
	root := filepath.Join(base, "root")
	f, sentinel := filepath.Join(root, "d", "f.txt"), filepath.Join(root, "e", "s.txt")
	servertest.Write(t, f, "inside")
	servertest.Write(t, sentinel, "s")
	servertest.Write(t, filepath.Join(base, "outside", "f.txt"), "outside")
	cs, _, ev, _ := connectWatching(t, Config{Roots: []string{root}, MaxWatches: 2}, servertest.Legacy) // root and a/ watched
	ctx := context.Background()
	for _, p := range []string{f, sentinel} {
		if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: roots.URI(p)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Rename(filepath.Join(root, "d"), filepath.Join(root, "d-old")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(base, "outside"), filepath.Join(root, "d")); err != nil {
		t.Fatal(err)
	}
	servertest.Write(t, filepath.Join(base, "outside", "f.txt"), "changed outside, and longer")
	servertest.Write(t, sentinel, "sentinel changed") // polled too: d/f.txt sorts first in a batch
	servertest.ExpectUpdated(t, ev, roots.URI(sentinel), roots.URI(f))
}
