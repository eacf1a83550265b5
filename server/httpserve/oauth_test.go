package httpserve

import (
	"crypto/rand"
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
	"github.com/grove-mcp/grove/internal/servertest"
	"github.com/grove-mcp/grove/server"
)

const testResource = "https://grove.example/mcp"

// testAS is an authorization server made for one test, on loopback: its
// metadata, its key set, and an introspection endpoint for the tokens it
// issued and has not revoked.
type testAS struct {
	*httptest.Server
	key *rsa.PrivateKey

	mu     sync.Mutex
	active map[string]map[string]any // token → its introspection answer
}

func newTestAS(t *testing.T) *testAS {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	as := &testAS{key: key, active: make(map[string]map[string]any)}
	mux := http.NewServeMux()
	mux.HandleFunc("/.well-known/oauth-authorization-server", func(w http.ResponseWriter, r *http.Request) {
		json.NewEncoder(w).Encode(map[string]any{
			"issuer": as.URL, "authorization_endpoint": as.URL + "/authorize", "token_endpoint": as.URL + "/token",
			"jwks_uri": as.URL + "/jwks", "introspection_endpoint": as.URL + "/introspect",
			"response_types_supported": []string{"code"}, "code_challenge_methods_supported": []string{"S256"},
		})
	})
	mux.HandleFunc("/jwks", func(w http.ResponseWriter, r *http.Request) {
		json.NewEncoder(w).Encode(jose.JSONWebKeySet{Keys: []jose.JSONWebKey{{Key: &key.PublicKey, KeyID: "k1", Algorithm: "RS256", Use: "sig"}}})
	})
	mux.HandleFunc("/introspect", func(w http.ResponseWriter, r *http.Request) {
		if id, secret, ok := r.BasicAuth(); !ok || id != "grove" || secret != "s3cret" {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		as.mu.Lock()
		ans, ok := as.active[r.PostFormValue("token")]
		as.mu.Unlock()
		if !ok {
			ans = map[string]any{"active": false}
		}
		json.NewEncoder(w).Encode(ans)
	})
	as.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		mux.ServeHTTP(w, r)
	}))
	t.Cleanup(as.Close)
	return as
}

// claims are a token's claims for grove, valid for a minute.
func (as *testAS) claims(scope string) map[string]any {
	now := time.Now()
	return map[string]any{"iss": as.URL, "aud": testResource, "sub": "alice", "scope": scope,
		"iat": now.Unix(), "nbf": now.Unix(), "exp": now.Add(time.Minute).Unix()}
}

// sign makes a JWT of claims with key and alg, under kid.
func sign(t *testing.T, alg jose.SignatureAlgorithm, key any, kid string, claims map[string]any) string {
	t.Helper()
	s, err := jose.NewSigner(jose.SigningKey{Algorithm: alg, Key: key}, (&jose.SignerOptions{}).WithHeader("kid", kid).WithType("at+jwt"))
	if err != nil {
		t.Fatal(err)
	}
	tok, err := jwt.Signed(s).Claims(claims).Serialize()
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// issue is a valid token for claims, known to introspection too.
func (as *testAS) issue(t *testing.T, claims map[string]any) string {
	tok := sign(t, jose.RS256, as.key, "k1", claims)
	ans := map[string]any{"active": true, "token_type": "Bearer", "client_id": "c"}
	for k, v := range claims {
		ans[k] = v
	}
	as.mu.Lock()
	as.active[tok] = ans
	as.mu.Unlock()
	return tok
}

func (as *testAS) revoke(tok string) {
	as.mu.Lock()
	delete(as.active, tok)
	as.mu.Unlock()
}

// with returns claims changed by set (a nil value removes the claim).
func with(claims map[string]any, set map[string]any) map[string]any {
	out := make(map[string]any)
	for k, v := range claims {
		out[k] = v
	}
	for k, v := range set {
		if v == nil {
			delete(out, k)
		} else {
			out[k] = v
		}
	}
	return out
}

func initialize(t *testing.T, url, token string) *http.Response {
	t.Helper()
	hdr := map[string]string{}
	if token != "" {
		hdr["Authorization"] = "Bearer " + token
	}
	return post(t, url, hdr, initializeBody)
}

func TestOAuthJWT(t *testing.T) {
	as := newTestAS(t)
	g := startHTTP(t, server.Config{Roots: []string{servertest.RealTemp(t)}}, Config{AuthIssuer: as.URL, Resource: testResource})
	good := as.claims("grove:read grove:write")
	otherKey, _ := rsa.GenerateKey(rand.Reader, 2048)
	unsigned := func() string { // alg none, hand-made: go-jose refuses to make one
		enc := func(v any) string { b, _ := json.Marshal(v); return base64.RawURLEncoding.EncodeToString(b) }
		return enc(map[string]string{"alg": "none", "typ": "JWT"}) + "." + enc(good) + "."
	}()
	publicDER := func() []byte { // the AS's public key, as an HMAC secret
		b, _ := json.Marshal(jose.JSONWebKey{Key: &as.key.PublicKey})
		return b
	}()
	for _, tt := range []struct {
		name       string
		token      string
		wantStatus int
	}{
		{"valid", as.issue(t, good), http.StatusOK},
		{"scope in a list", as.issue(t, with(good, map[string]any{"scope": nil, "scp": []string{"grove:read"}})), http.StatusOK},
		{"audience in a list", as.issue(t, with(good, map[string]any{"aud": []string{"other", testResource}})), http.StatusOK},
		{"missing", "", http.StatusUnauthorized},
		{"the static token", testToken, http.StatusUnauthorized},
		{"another audience", as.issue(t, with(good, map[string]any{"aud": "https://other.example/mcp"})), http.StatusUnauthorized},
		{"no audience", as.issue(t, with(good, map[string]any{"aud": nil})), http.StatusUnauthorized},
		{"another issuer", as.issue(t, with(good, map[string]any{"iss": "https://evil.example"})), http.StatusUnauthorized},
		{"expired", as.issue(t, with(good, map[string]any{"exp": time.Now().Add(-time.Hour).Unix()})), http.StatusUnauthorized},
		{"no expiry", as.issue(t, with(good, map[string]any{"exp": nil})), http.StatusUnauthorized},
		{"not yet valid", as.issue(t, with(good, map[string]any{"nbf": time.Now().Add(time.Hour).Unix()})), http.StatusUnauthorized},
		{"alg none", unsigned, http.StatusUnauthorized},
		{"HMAC with the public key", sign(t, jose.HS256, publicDER, "k1", good), http.StatusUnauthorized},
		{"forged with another key", sign(t, jose.RS256, otherKey, "k1", good), http.StatusUnauthorized},
		{"an unknown key", sign(t, jose.RS256, otherKey, "k2", good), http.StatusUnauthorized},
		{"a tampered payload", func() string {
			parts := strings.Split(as.issue(t, good), ".")
			b, _ := json.Marshal(with(good, map[string]any{"sub": "mallory"}))
			return parts[0] + "." + base64.RawURLEncoding.EncodeToString(b) + "." + parts[2]
		}(), http.StatusUnauthorized},
		{"garbage", "not.a.jwt", http.StatusUnauthorized},
		{"no grove scope", as.issue(t, with(good, map[string]any{"scope": "openid profile"})), http.StatusForbidden},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res := initialize(t, g.url, tt.token)
			if res.StatusCode != tt.wantStatus {
				t.Fatalf("status %d, want %d", res.StatusCode, tt.wantStatus)
			}
			challenge := res.Header.Get("WWW-Authenticate")
			switch tt.wantStatus {
			case http.StatusUnauthorized:
				if want := `resource_metadata="https://grove.example/.well-known/oauth-protected-resource/mcp"`; !strings.Contains(challenge, want) {
					t.Errorf("WWW-Authenticate %q, want %s", challenge, want)
				}
			case http.StatusForbidden:
				if !strings.Contains(challenge, `error="insufficient_scope"`) || !strings.Contains(challenge, `scope="grove:read"`) {
					t.Errorf("WWW-Authenticate %q, want insufficient_scope naming grove:read", challenge)
				}
			}
		})
	}
}

func TestOAuthProtectedResourceMetadata(t *testing.T) {
	as := newTestAS(t)
	g := startHTTP(t, server.Config{Roots: []string{servertest.RealTemp(t)}}, Config{AuthIssuer: as.URL, Resource: testResource})
	base := strings.TrimSuffix(g.url, "/mcp")
	for _, path := range []string{metadataPath, metadataPath + "/mcp"} {
		res := getRaw(t, base+path, map[string]string{"Origin": "https://client.example"})
		var prm struct {
			Resource             string   `json:"resource"`
			AuthorizationServers []string `json:"authorization_servers"`
			ScopesSupported      []string `json:"scopes_supported"`
		}
		if err := json.NewDecoder(res.Body).Decode(&prm); err != nil || res.StatusCode != http.StatusOK {
			t.Fatalf("%s: status %d, %v", path, res.StatusCode, err)
		}
		if prm.Resource != testResource || len(prm.AuthorizationServers) != 1 || prm.AuthorizationServers[0] != as.URL || len(prm.ScopesSupported) != 2 {
			t.Errorf("%s: %+v", path, prm)
		}
	}
	if res := getRaw(t, base+metadataPath, map[string]string{"Host": "evil.example"}); res.StatusCode != http.StatusForbidden {
		t.Errorf("a rebinding Host got %d, want 403", res.StatusCode)
	}
}

// With introspection, a revoked token stops working at once.
func TestOAuthIntrospection(t *testing.T) {
	as := newTestAS(t)
	g := startHTTP(t, server.Config{Roots: []string{servertest.RealTemp(t)}}, Config{AuthIssuer: as.URL, Resource: testResource,
		Introspect: as.URL + "/introspect", IntrospectAuth: "grove:s3cret"})
	good := as.claims("grove:read")
	tok := as.issue(t, good)
	if res := initialize(t, g.url, tok); res.StatusCode != http.StatusOK {
		t.Fatalf("an active token: status %d", res.StatusCode)
	}
	as.revoke(tok)
	if res := initialize(t, g.url, tok); res.StatusCode != http.StatusUnauthorized {
		t.Errorf("a revoked token replayed: status %d, want 401", res.StatusCode)
	}
	for name, claims := range map[string]map[string]any{
		"another audience": with(good, map[string]any{"aud": "https://other.example/mcp"}),
		"another issuer":   with(good, map[string]any{"iss": "https://evil.example"}),
		"expired":          with(good, map[string]any{"exp": time.Now().Add(-time.Hour).Unix()}),
	} {
		if res := initialize(t, g.url, as.issue(t, claims)); res.StatusCode != http.StatusUnauthorized {
			t.Errorf("%s: status %d, want 401", name, res.StatusCode)
		}
	}
}

func TestOAuthConfigErrors(t *testing.T) {
	as := newTestAS(t)
	for _, tt := range []struct {
		name    string
		hc      Config
		wantMsg string
	}{
		{"no resource", Config{AuthIssuer: as.URL}, "--http-resource"},
		{"relative resource", Config{AuthIssuer: as.URL, Resource: "/mcp"}, "absolute"},
		{"no metadata", Config{AuthIssuer: as.URL + "/nothing", Resource: testResource}, "no metadata"},
		{"unreachable", Config{AuthIssuer: "http://127.0.0.1:1", Resource: testResource}, "discovering"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := newOAuthVerifier(t.Context(), tt.hc, slog.New(slog.DiscardHandler))
			if err == nil || !strings.Contains(err.Error(), tt.wantMsg) {
				t.Errorf("%v, want an error with %q", err, tt.wantMsg)
			}
		})
	}
}

// A session is its creator's: another user's token does not reach it, on
// /mcp or /sse.
func TestOAuthSessionCrossing(t *testing.T) {
	as := newTestAS(t)
	g := startHTTP(t, server.Config{Roots: []string{servertest.RealTemp(t)}}, Config{AuthIssuer: as.URL, Resource: testResource})
	alice := as.issue(t, as.claims("grove:read"))
	bob := as.issue(t, with(as.claims("grove:read"), map[string]any{"sub": "bob"}))
	res := initialize(t, g.url, alice)
	id := res.Header.Get("Mcp-Session-Id")
	if res.StatusCode != http.StatusOK || id == "" {
		t.Fatalf("alice's initialize: %d %q", res.StatusCode, id)
	}
	ping := `{"jsonrpc":"2.0","id":2,"method":"ping"}`
	hdr := func(tok string) map[string]string {
		return map[string]string{"Authorization": "Bearer " + tok, "Mcp-Session-Id": id, "MCP-Protocol-Version": servertest.Legacy}
	}
	if res := post(t, g.url, hdr(bob), ping); res.StatusCode != http.StatusForbidden {
		t.Errorf("bob in alice's Streamable HTTP session: %d, want 403", res.StatusCode)
	}
	if res := post(t, g.url, hdr(alice), ping); res.StatusCode != http.StatusOK {
		t.Errorf("alice in her own session: %d", res.StatusCode)
	}

	stream := getRaw(t, g.sseURL(), map[string]string{"Authorization": "Bearer " + alice})
	e := <-readEvents(stream.Body)
	endpoint := strings.TrimSuffix(g.url, "/mcp") + e.data
	if res := post(t, endpoint, map[string]string{"Authorization": "Bearer " + bob}, initializeBody); res.StatusCode != http.StatusNotFound {
		t.Errorf("bob in alice's SSE session: %d, want 404", res.StatusCode)
	}
	if res := post(t, endpoint, map[string]string{"Authorization": "Bearer " + alice}, initializeBody); res.StatusCode != http.StatusAccepted {
		t.Errorf("alice in her own SSE session: %d", res.StatusCode)
	}
}
