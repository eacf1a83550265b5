package server

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/grove-mcp/grove/internal/servertest"
	"github.com/grove-mcp/grove/roots"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// subscribeTree builds a root with symlinks that stay in it and symlinks that
// leave it (to a file, to a directory, dangling, looping), and returns the
// temporary directory and the root.
func subscribeTree(t *testing.T) (base, root string) {
	t.Helper()
	base = servertest.RealTemp(t)
	servertest.Mkdirs(t, base, "root/real", "outside/dir")
	root = filepath.Join(base, "root")
	servertest.Write(t, filepath.Join(base, "outside", "secret.txt"), "secret")
	servertest.Write(t, filepath.Join(base, "outside", "dir", "x"), "x")
	servertest.Write(t, filepath.Join(root, "real", "f.txt"), "f")
	for link, target := range map[string]string{
		"abs":              filepath.Join(base, "outside", "secret.txt"),
		"rel-up":           "../outside/secret.txt",
		"dangling-out":     filepath.Join(base, "outside", "nope.txt"),
		"rel-dangling-out": "../outside/nope.txt",
		"dlink":            filepath.Join(base, "outside"),
		"rel-dlink":        "../outside",
		"in-then-out":      "real/../../outside/secret.txt",
		"loop":             "loop",
		"in":               "real/f.txt",
		"abs-in":           filepath.Join(root, "real", "f.txt"),
		"dangling-in":      "real/nope.txt",
	} {
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Fatal(err)
		}
	}
	return base, root
}

// What a read refuses, subscribe and unsubscribe refuse with the same error,
// byte for byte; what lies inside (or is missing inside: its creation is a
// change) subscribes.
var (
	refusedNames = []string{
		"abs", "rel-up", "dangling-out", "rel-dangling-out", "dlink", "dlink/secret.txt", "dlink/dir/x",
		"dlink/missing", "dlink/dir/missing", "rel-dlink/secret.txt", "rel-dlink/missing", "in-then-out", "loop",
	}
	acceptedNames = []string{"in", "abs-in", "dangling-in", "real", "real/f.txt", "real/missing.txt"}
)

// controlURIs are URIs with control characters, whose not-found data the
// SDK's own error helper would write as invalid JSON. A NUL can be in no
// file name; the others can, so those name files that may yet be created.
func controlURIs(root string) (nul string, others []string) {
	base := roots.URI(filepath.Join(root, "real", "f.txt"))
	for _, c := range []string{"\x01", "\x1b", "\x7f"} {
		others = append(others, base+c+"/x")
	}
	return base + "\x00/x", others
}

func TestSubscribeResolvesLikeReadLegacy(t *testing.T) {
	_, root := subscribeTree(t)
	c, s := connectRaw(t, Config{Roots: []string{root}})
	c.initializeLegacy(`{}`, true)
	id := int64(10)
	ask := func(method, uri string) *jsonrpc.Response {
		id++
		return c.call(id, request(id, method, map[string]any{"uri": uri}, nil))
	}
	notFound := func(uri string) string {
		data, _ := json.Marshal(map[string]string{"uri": uri})
		return `{"code":-32002,"message":"Resource not found","data":` + string(data) + `}`
	}
	for _, name := range refusedNames {
		uri := roots.URI(filepath.Join(root, name))
		read := errorOnWire(t, ask("resources/read", uri))
		if want := notFound(uri); read != want {
			t.Errorf("read %s: %s, want %s", name, read, want)
		}
		for _, method := range []string{"resources/subscribe", "resources/unsubscribe"} {
			if got := errorOnWire(t, ask(method, uri)); got != read {
				t.Errorf("%s %s: %s, read answers %s", method, name, got, read)
			}
		}
	}
	// A read of these never reaches grove's handler (the SDK's template
	// match refuses them, with its own error, which the server's error
	// middleware rewrites); subscribe and unsubscribe answer in JSON.
	nul, others := controlURIs(root)
	for _, method := range []string{"resources/subscribe", "resources/unsubscribe"} {
		if got, want := errorOnWire(t, ask(method, nul)), notFound(nul); got != want {
			t.Errorf("%s %q: %s, want %s", method, nul, got, want)
		}
		for _, uri := range others {
			if r := ask(method, uri); r.Error != nil {
				t.Errorf("%s %q: %v", method, uri, r.Error)
			}
		}
	}
	for _, name := range acceptedNames {
		uri := roots.URI(filepath.Join(root, name))
		for _, method := range []string{"resources/subscribe", "resources/unsubscribe"} {
			if r := ask(method, uri); r.Error != nil {
				t.Errorf("%s %s: %v", method, name, r.Error)
			}
		}
	}
	s.notify.mu.Lock()
	defer s.notify.mu.Unlock()
	if len(s.notify.subs) != 0 {
		t.Errorf("subscriptions left after unsubscribing all: %v", s.notify.subs)
	}
}

// In the modern era a subscription comes with subscriptions/listen: a URI a
// read refuses ends the stream with the read's error.
func TestSubscribeResolvesLikeReadModern(t *testing.T) {
	_, root := subscribeTree(t)
	c, s := connectRaw(t, Config{Roots: []string{root}})
	var refused []string
	for _, name := range refusedNames {
		refused = append(refused, roots.URI(filepath.Join(root, name)))
	}
	for i, uri := range refused {
		id := int64(100 + 2*i)
		read := errorOnWire(t, c.call(id, request(id, "resources/read", map[string]any{"uri": uri}, servertest.ModernRequestMeta(false))))
		listen := c.call(id+1, request(id+1, "subscriptions/listen",
			map[string]any{"notifications": map[string]any{"resourceSubscriptions": []string{uri}}}, servertest.ModernRequestMeta(false)))
		if got := errorOnWire(t, listen); got != read {
			t.Errorf("listen %q: %s, read answers %s", uri, got, read)
		}
	}
	s.notify.mu.Lock()
	defer s.notify.mu.Unlock()
	if len(s.notify.subs) != 0 {
		t.Errorf("refused subscriptions were recorded: %v", s.notify.subs)
	}
}
