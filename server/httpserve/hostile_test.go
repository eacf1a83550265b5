package httpserve

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/grove-mcp/grove/internal/servertest"
	"github.com/grove-mcp/grove/server"
)

// Malformed and hostile requests get a 4xx answer with a JSON body (or a
// JSON-RPC error in a 200 stream), never a 5xx, a hang or a crash; and the
// server still serves afterwards.
func TestHTTPHostileRequests(t *testing.T) {
	g := startHTTP(t, server.Config{Roots: []string{servertest.RealTemp(t)}}, Config{})
	rs := openRawSession(t, g.url, `{}`)
	auth := "Bearer " + testToken
	legacyHdr := map[string]string{"Authorization": auth}
	modernHdr := map[string]string{"Authorization": auth, "MCP-Protocol-Version": servertest.Modern, "Mcp-Method": "tools/list"}
	for _, tt := range []struct {
		name   string
		method string
		hdr    map[string]string
		body   string
	}{
		{"not json", http.MethodPost, legacyHdr, "{nope"},
		{"empty body", http.MethodPost, legacyHdr, ""},
		{"empty batch", http.MethodPost, legacyHdr, "[]"},
		{"deep nesting", http.MethodPost, legacyHdr, strings.Repeat("[", 100000) + strings.Repeat("]", 100000)},
		{"a huge id", http.MethodPost, legacyHdr, `{"jsonrpc":"2.0","id":` + strings.Repeat("9", 100000) + `,"method":"ping"}`},
		{"unknown session", http.MethodPost, map[string]string{"Authorization": auth, "Mcp-Session-Id": "NOPE"}, `{"jsonrpc":"2.0","id":1,"method":"ping"}`},
		{"session id with control bytes", http.MethodPost, map[string]string{"Authorization": auth, "Mcp-Session-Id": "a\tb"}, `{"jsonrpc":"2.0","id":1,"method":"ping"}`},
		{"a batch past the in-flight limit", http.MethodPost, rs.headers(), "[" + strings.Repeat(`{"jsonrpc":"2.0","id":1,"method":"ping"},`, 40) + `{"jsonrpc":"2.0","id":2,"method":"ping"}]`},
		{"GET without a session", http.MethodGet, legacyHdr, ""},
		{"DELETE without a session", http.MethodDelete, legacyHdr, ""},
		{"PUT", http.MethodPut, legacyHdr, "{}"},
		{"modern without _meta", http.MethodPost, modernHdr, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`},
		{"modern with a mismatched method header", http.MethodPost, modernHdr, `{"jsonrpc":"2.0","id":1,"method":"prompts/list","params":{"_meta":` + mustJSON(t, servertest.ModernRequestMeta(false)) + `}}`},
		{"modern GET", http.MethodGet, modernHdr, ""},
		{"an unsupported version header", http.MethodPost, map[string]string{"Authorization": auth, "MCP-Protocol-Version": "1999-01-01"}, `{"jsonrpc":"2.0","id":1,"method":"ping"}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			req, _ := http.NewRequest(tt.method, g.url, strings.NewReader(tt.body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			for k, v := range tt.hdr {
				req.Header.Set(k, v)
			}
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			data, _ := io.ReadAll(io.LimitReader(res.Body, 1<<20))
			if res.StatusCode >= 500 {
				t.Fatalf("status %d: %s", res.StatusCode, data)
			}
			if res.StatusCode >= 400 && !json.Valid(data) {
				t.Errorf("status %d with a body that is not JSON: %q", res.StatusCode, data)
			}
		})
	}
	if res := rs.post(`{"jsonrpc":"2.0","id":9,"method":"ping"}`); res.StatusCode != http.StatusOK {
		t.Errorf("the session after the hostile requests: status %d", res.StatusCode)
	}
}
