package server

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
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
	logged      chan *mcp.LoggingMessageParams
}

// connectWatching is connect with a client that records notifications.
func connectWatching(t *testing.T, cfg Config, era string, clientRoots ...string) (*mcp.ClientSession, *mcp.Client, events, *Server) {
	t.Helper()
	ev := events{updated: make(chan string, 1000), listChanged: make(chan struct{}, 1000), logged: make(chan *mcp.LoggingMessageParams, 1000)}
	cs, client, s := connectWith(t, cfg, era, &mcp.ClientOptions{
		ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
			ev.updated <- req.Params.URI
		},
		ResourceListChangedHandler: func(context.Context, *mcp.ResourceListChangedRequest) {
			ev.listChanged <- struct{}{}
		},
		LoggingMessageHandler: func(_ context.Context, req *mcp.LoggingMessageRequest) {
			ev.logged <- req.Params
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

// waitSubscribedTo waits until the server's subscriptions are to exactly
// the files want: a modern client's Subscribe and Unsubscribe return before
// the server has processed them. (The SDK records a subscription just after
// grove does, microseconds before any change could be batched.)
func waitSubscribedTo(t *testing.T, s *Server, want ...string) {
	t.Helper()
	slices.Sort(want)
	deadline := time.Now().Add(waitLimit)
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
			t.Fatalf("subscribed to %v after %v, want %v", got, waitLimit, want)
		}
		time.Sleep(time.Millisecond)
	}
}

// primeUpdates writes path until an update of uri arrives, then waits until
// the updates stop for a while. A modern client's subscription reaches the
// SDK's own record just after grove's, and under load a first change can fall
// in between; the steps that follow must each see their own update.
func primeUpdates(t *testing.T, ev events, path, uri string) {
	t.Helper()
	deadline := time.Now().Add(waitLimit)
	for i := 0; ; i++ {
		write(t, path, fmt.Sprintf("prime %d", i))
		select {
		case got := <-ev.updated:
			if got == uri {
				drainUpdates(ev, 300*time.Millisecond)
				return
			}
		case <-time.After(time.Second):
		}
		if time.Now().After(deadline) {
			t.Fatalf("no update for %s within %v of writes", uri, waitLimit)
		}
	}
}

// drainUpdates discards updates until none has come for quiet.
func drainUpdates(ev events, quiet time.Duration) {
	for {
		select {
		case <-ev.updated:
		case <-time.After(quiet):
			return
		}
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
			cs, _, ev, s := connectWatching(t, Config{Roots: []string{dir}}, era)
			ctx := context.Background()
			if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: roots.URI(a)}); err != nil {
				t.Fatal(err)
			}
			waitSubscribedTo(t, s, a)
			primeUpdates(t, ev, a, roots.URI(a))

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
			waitSubscribedTo(t, s, z)
			primeUpdates(t, ev, z, roots.URI(z))
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

// A roots change re-scopes everything: the client is told its resource list
// changed; a subscription outside the new roots goes dormant (kept, silent,
// logged for the client), and wakes, with an update, when the roots include
// it again; files in the new roots are watched.
func TestRootsChangeMakesSubscriptionsDormant(t *testing.T) {
	base := realTemp(t)
	mkdirs(t, base, "a", "b")
	dirA, dirB := filepath.Join(base, "a"), filepath.Join(base, "b")
	fa, fb := filepath.Join(dirA, "f.txt"), filepath.Join(dirB, "f.txt")
	write(t, fa, "a")
	write(t, fb, "b")

	cs, client, ev, _ := connectWatching(t, Config{Roots: []string{base}}, legacy, dirA)
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
	setClientRoots(t, cs, client, []string{dirA}, dirA) // the client has handled every notification before it
	drainListChanged(ev)

	setClientRoots(t, cs, client, []string{dirA}, dirB)
	expectListChanged(t, ev)
	expectLogged(t, ev, "subscription dormant", roots.URI(fa))
	if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: roots.URI(fb)}); err != nil {
		t.Fatal(err)
	}
	write(t, fa, "a2") // dormant: no update, though fa sorts first
	write(t, fb, "b2")
	expectUpdated(t, ev, roots.URI(fb), roots.URI(fa))

	setClientRoots(t, cs, client, []string{dirB}, dirA)
	expectListChanged(t, ev)
	expectLogged(t, ev, "subscription resumed", roots.URI(fa))
	expectUpdated(t, ev, roots.URI(fa))                                                 // it may have changed while dormant
	if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: roots.URI(fa)}); err != nil { // again: answered once a/ is watched
		t.Fatal(err)
	}
	write(t, fa, "a3 after waking")
	expectUpdated(t, ev, roots.URI(fa))
}

// The same roots again change nothing a client lists: no list_changed. A
// count is taken after a roots/list the client answered: the client handles
// the notifications sent before it first.
func TestSameRootsSendNoListChanged(t *testing.T) {
	base := realTemp(t)
	mkdirs(t, base, "a", "b")
	dirA, dirB := filepath.Join(base, "a"), filepath.Join(base, "b")
	cs, client, ev, _ := connectWatching(t, Config{Roots: []string{base}}, legacy, dirA)
	listRoots(t, cs)
	setClientRoots(t, cs, client, []string{dirA}, dirA) // announced again, unchanged
	before := len(ev.listChanged)
	setClientRoots(t, cs, client, []string{dirA}, dirA)
	setClientRoots(t, cs, client, []string{dirA}, dirA)
	if n := len(ev.listChanged); n != before {
		t.Errorf("%d list_changed notifications for the same roots", n-before)
	}
	drainListChanged(ev)
	setClientRoots(t, cs, client, []string{dirA}, dirB)
	expectListChanged(t, ev)
}

// setClientRoots changes the client's roots from from to to (adding first,
// so that the roots never fall back to the operator's while they change) and
// waits until the server applied them: list_roots waits for the roots/list
// in flight.
func setClientRoots(t *testing.T, cs *mcp.ClientSession, client *mcp.Client, from []string, to ...string) {
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
	if got := paths(listRoots(t, cs)); !slices.Equal(got, want) {
		t.Fatalf("roots %v, want %v", got, want)
	}
}

func drainListChanged(ev events) {
	for {
		select {
		case <-ev.listChanged:
		default:
			return
		}
	}
}

func expectListChanged(t *testing.T, ev events) {
	t.Helper()
	select {
	case <-ev.listChanged:
	case <-time.After(waitLimit):
		t.Fatal("no list_changed")
	}
}

// expectLogged waits for a client log record whose message starts with msg
// and whose uri is uri.
func expectLogged(t *testing.T, ev events, msg, uri string) {
	t.Helper()
	timeout := time.After(waitLimit)
	for {
		select {
		case p := <-ev.logged:
			data, _ := p.Data.(map[string]any)
			if m, _ := data["msg"].(string); strings.HasPrefix(m, msg) && data["uri"] == uri {
				return
			}
		case <-timeout:
			t.Fatalf("no %q record for %s within %v", msg, uri, waitLimit)
		}
	}
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

// No update tells of a change outside the roots: a subscribed file whose
// directory is swapped for a symlink out of the roots is silent (here it is
// polled, its directory being past the watch limit, and polling reaches
// through the link).
func TestNoUpdateThroughSymlinkOut(t *testing.T) {
	base := realTemp(t)
	mkdirs(t, base, "root/a", "root/d", "root/e", "outside")
	root := filepath.Join(base, "root")
	f, sentinel := filepath.Join(root, "d", "f.txt"), filepath.Join(root, "e", "s.txt")
	write(t, f, "inside")
	write(t, sentinel, "s")
	write(t, filepath.Join(base, "outside", "f.txt"), "outside")
	cs, _, ev, _ := connectWatching(t, Config{Roots: []string{root}, MaxWatches: 2}, legacy) // root and a/ watched
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
	write(t, filepath.Join(base, "outside", "f.txt"), "changed outside, and longer")
	write(t, sentinel, "sentinel changed") // polled too: d/f.txt sorts first in a batch
	expectUpdated(t, ev, roots.URI(sentinel), roots.URI(f))
}
