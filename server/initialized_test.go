package server

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/grove-mcp/grove/internal/servertest"
	"github.com/grove-mcp/grove/roots"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// Before notifications/initialized grove sends the client no request: a
// request that arrives earlier, even one whose _meta says the client would
// share its roots (for which the SDK itself would send roots/list to a
// session that began with a legacy initialize), is answered from the
// operator's roots, and so is a roots/list_changed. After initialized, the
// client is asked for its roots.
func TestNoRequestBeforeInitialized(t *testing.T) {
	base := servertest.RealTemp(t)
	servertest.Mkdirs(t, base, "proj/sub")
	proj := filepath.Join(base, "proj")
	servertest.Write(t, filepath.Join(proj, "a.txt"), "alpha\n")
	servertest.Write(t, filepath.Join(proj, "sub", "b.txt"), "beta\n")
	c, _ := connectRaw(t, Config{Roots: []string{proj}})
	c.initializeLegacy(`{"roots":{"listChanged":true}}`, false)

	early := func(msg jsonrpc.Message) {
		if r, ok := msg.(*jsonrpc.Request); ok && r.IsCall() {
			t.Errorf("server sent request %s before notifications/initialized", r.Method)
		}
	}
	readA := map[string]any{"uri": roots.URI(filepath.Join(proj, "a.txt"))}
	for i, tt := range []struct {
		method string
		params map[string]any
		want   string // in the result
	}{
		{"tools/call", map[string]any{"name": "list_roots", "arguments": map[string]any{}}, `"source":"flag"`},
		{"tools/call", map[string]any{"name": "read_file", "arguments": map[string]any{"path": "a.txt"}}, "alpha"},
		{"resources/read", readA, "alpha"},
		{"prompts/get", map[string]any{"name": "review_file", "arguments": map[string]any{"path": "a.txt"}}, "alpha"},
	} {
		for _, meta := range []map[string]any{nil, servertest.ModernRequestMeta(true)} {
			id := int64(10 + 2*i)
			if meta != nil {
				id++
			}
			c.send(request(id, tt.method, tt.params, meta))
			if r := c.await(id, early); r.Error != nil || !strings.Contains(string(r.Result), tt.want) {
				t.Errorf("%s (modern _meta %v): %s %v, want a result with %s", tt.method, meta != nil, r.Result, r.Error, tt.want)
			}
			delete(tt.params, "_meta")
		}
	}
	c.send(`{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}`)
	c.send(`{"jsonrpc":"2.0","id":50,"method":"ping"}`)
	if r := c.await(50, early); r.Error != nil {
		t.Fatal(r.Error)
	}

	// After initialized, roots/list is asked once (not once more for the
	// early list_changed), and the client's roots apply.
	c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	asked := 0
	answer := func(msg jsonrpc.Message) {
		req, ok := msg.(*jsonrpc.Request)
		if !ok || req.Method != "roots/list" {
			return
		}
		asked++
		res, _ := json.Marshal(map[string]any{"roots": []map[string]string{{"uri": roots.URI(filepath.Join(proj, "sub"))}}})
		if err := c.conn.Write(t.Context(), &jsonrpc.Response{ID: req.ID, Result: res}); err != nil {
			t.Fatal(err)
		}
	}
	c.send(request(60, "tools/call", map[string]any{"name": "list_roots", "arguments": map[string]any{}}, nil))
	r := c.await(60, answer)
	if r.Error != nil || !strings.Contains(string(r.Result), `"source":"client"`) {
		t.Errorf("list_roots after initialized: %s %v, want the client's root", r.Result, r.Error)
	}
	if asked != 1 {
		t.Errorf("roots/list asked %d times, want once", asked)
	}
}
