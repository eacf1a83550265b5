package httpserve

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// The scopes grove's tokens carry: grove:read for everything that only
// reads (files, search, status, log, diff, prompts), grove:write also for
// the tools that write files or repositories.
const (
	ScopeRead  = "grove:read"
	ScopeWrite = "grove:write"
)

// OAuth timings.
const (
	// clockLeeway tolerates an authorization server whose clock is a little
	// ahead of or behind grove's, for exp and nbf.
	clockLeeway = 30 * time.Second
	// jwksRefreshGap bounds how often a token signed with an unknown key
	// makes grove fetch the key set again: a stream of forged key IDs must
	// not turn grove into a load on the authorization server.
	jwksRefreshGap = 30 * time.Second
	oauthTimeout   = 10 * time.Second
	maxOAuthBody   = 1 << 20
)

// signatureAlgs are the JWS algorithms grove accepts: asymmetric only. "none"
// and the HMAC family are refused before any key is looked at, which is
// what stops a token "signed" with HS256 and the AS's public key as secret.
var signatureAlgs = []jose.SignatureAlgorithm{
	jose.RS256, jose.RS384, jose.RS512, jose.PS256, jose.PS384, jose.PS512,
	jose.ES256, jose.ES384, jose.ES512, jose.EdDSA,
}

// oauthVerifier checks access tokens from the operator's authorization
// server for grove's resource URI: JWTs against the server's key set
// (discovered from its metadata), or, with an introspection endpoint, by
// asking the server each time (so that a revoked token stops working at
// once).
type oauthVerifier struct {
	issuer, resource string
	introspect       string
	introspectAuth   string // "client_id:client_secret" for HTTP Basic, or ""
	jwksURI          string
	client           *http.Client
	logger           *slog.Logger

	mu      sync.Mutex // guards the fields below
	keys    jose.JSONWebKeySet
	fetched time.Time
}

// newOAuthVerifier discovers the authorization server's metadata (RFC 8414,
// then OpenID Connect discovery) and, without introspection, its key set.
func newOAuthVerifier(ctx context.Context, hc Config, logger *slog.Logger) (*oauthVerifier, error) {
	if hc.Resource == "" {
		return nil, errors.New("--http-auth-issuer needs --http-resource, the URI tokens must name as their audience")
	}
	if u, err := url.Parse(hc.Resource); err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") || u.Fragment != "" {
		return nil, fmt.Errorf("--http-resource %q: want an absolute http(s) URI without a fragment", hc.Resource)
	}
	v := &oauthVerifier{issuer: hc.AuthIssuer, resource: hc.Resource, introspect: hc.Introspect,
		introspectAuth: hc.IntrospectAuth, client: &http.Client{Timeout: oauthTimeout}, logger: logger}
	ctx, cancel := context.WithTimeout(ctx, oauthTimeout)
	defer cancel()
	meta, err := auth.GetAuthServerMetadata(ctx, hc.AuthIssuer, v.client)
	if err != nil {
		return nil, fmt.Errorf("discovering the authorization server %s: %w", hc.AuthIssuer, err)
	}
	if meta == nil {
		return nil, fmt.Errorf("discovering the authorization server %s: no metadata at its well-known URLs", hc.AuthIssuer)
	}
	if v.introspect != "" {
		return v, nil
	}
	if meta.JWKSURI == "" {
		return nil, fmt.Errorf("the authorization server %s publishes no jwks_uri: give --http-introspect", hc.AuthIssuer)
	}
	v.jwksURI = meta.JWKSURI
	if err := v.refreshKeys(ctx); err != nil {
		return nil, err
	}
	return v, nil
}

// verify is an [auth.TokenVerifier].
func (v *oauthVerifier) verify(ctx context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
	if v.introspect != "" {
		return v.introspectToken(ctx, token)
	}
	return v.verifyJWT(ctx, token)
}

// tokenClaims are the claims grove reads beyond the registered ones.
type tokenClaims struct {
	Scope    string   `json:"scope"` // RFC 8693 / RFC 9068: space-separated
	Scp      []string `json:"scp"`   // some servers use a list
	ClientID string   `json:"client_id"`
}

func (c tokenClaims) scopes() []string {
	return append(strings.Fields(c.Scope), c.Scp...)
}

func invalid(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{auth.ErrInvalidToken}, args...)...)
}

func (v *oauthVerifier) verifyJWT(ctx context.Context, token string) (*auth.TokenInfo, error) {
	tok, err := jwt.ParseSigned(token, signatureAlgs)
	if err != nil {
		return nil, invalid("not a JWT signed with an asymmetric algorithm")
	}
	keys, err := v.keysFor(ctx, tok.Headers[0].KeyID)
	if err != nil {
		return nil, err
	}
	var reg jwt.Claims
	var extra tokenClaims
	if err := tok.Claims(keys, &reg, &extra); err != nil {
		return nil, invalid("the signature does not verify with the authorization server's keys")
	}
	if err := reg.ValidateWithLeeway(jwt.Expected{Issuer: v.issuer, Time: time.Now()}, clockLeeway); err != nil {
		return nil, invalid("%v", err)
	}
	if reg.Expiry == nil {
		return nil, invalid("the token has no expiry")
	}
	if !oauthex.MatchesResource(reg.Audience, v.resource) {
		return nil, invalid("the token is for another resource")
	}
	return &auth.TokenInfo{Scopes: extra.scopes(), Expiration: reg.Expiry.Time(), UserID: principal(reg.Subject, extra.ClientID)}, nil
}

// principal names a token's holder for session ownership.
func principal(sub, clientID string) string {
	if sub != "" {
		return "sub:" + sub
	}
	return "client:" + clientID
}

// keysFor returns the key set, fetched again first when it lacks kid (the
// server rotated its keys), at most once per jwksRefreshGap.
func (v *oauthVerifier) keysFor(ctx context.Context, kid string) (*jose.JSONWebKeySet, error) {
	v.mu.Lock()
	known := len(v.keys.Key(kid)) > 0
	stale := time.Since(v.fetched) > jwksRefreshGap
	v.mu.Unlock()
	if !known && stale {
		if err := v.refreshKeys(ctx); err != nil {
			v.logger.Warn("fetching the authorization server's keys failed", "err", err)
		}
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if len(v.keys.Key(kid)) == 0 {
		return nil, invalid("signed with a key the authorization server does not publish")
	}
	keys := &jose.JSONWebKeySet{}
	for _, k := range v.keys.Key(kid) {
		if k.Use != "enc" && k.IsPublic() {
			keys.Keys = append(keys.Keys, k)
		}
	}
	return keys, nil
}

func (v *oauthVerifier) refreshKeys(ctx context.Context) error {
	var set jose.JSONWebKeySet
	if err := v.getJSON(ctx, v.jwksURI, &set); err != nil {
		return fmt.Errorf("fetching the key set %s: %w", v.jwksURI, err)
	}
	v.mu.Lock()
	v.keys, v.fetched = set, time.Now()
	v.mu.Unlock()
	return nil
}

func (v *oauthVerifier) getJSON(ctx context.Context, u string, dst any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/json")
	return v.do(req, dst)
}

func (v *oauthVerifier) do(req *http.Request, dst any) error {
	res, err := v.client.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		// Some servers answer an inactive token with 401 and {"active":
		// false}: the body is decoded for the caller to judge.
		json.NewDecoder(io.LimitReader(res.Body, maxOAuthBody)).Decode(dst)
		return fmt.Errorf("%w %d", errStatus, res.StatusCode)
	}
	return json.NewDecoder(io.LimitReader(res.Body, maxOAuthBody)).Decode(dst)
}

// errStatus is an answer other than 200 OK.
var errStatus = errors.New("status")

// metadataPath is where grove serves its Protected Resource Metadata
// (RFC 9728).
const metadataPath = "/.well-known/oauth-protected-resource"

// metadataURL is the PRM URL for resource: its origin plus metadataPath,
// plus the resource's path (RFC 9728 section 3.1), which grove serves too.
func metadataURL(resource string) string {
	u, err := url.Parse(resource)
	if err != nil {
		return ""
	}
	return u.Scheme + "://" + u.Host + metadataPath + strings.TrimSuffix(u.EscapedPath(), "/")
}

func (v *oauthVerifier) metadata() http.Handler {
	return auth.ProtectedResourceMetadataHandler(&oauthex.ProtectedResourceMetadata{
		Resource:               v.resource,
		AuthorizationServers:   []string{v.issuer},
		ScopesSupported:        []string{ScopeRead, ScopeWrite},
		BearerMethodsSupported: []string{"header"},
		ResourceName:           "grove",
	})
}
