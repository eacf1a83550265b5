package httpserve

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// introspection is an RFC 7662 answer.
type introspection struct {
	Active   bool            `json:"active"`
	Scope    string          `json:"scope"`
	Aud      json.RawMessage `json:"aud"` // a string or a list
	Iss      string          `json:"iss"`
	Exp      int64           `json:"exp"`
	Nbf      int64           `json:"nbf"`
	Sub      string          `json:"sub"`
	ClientID string          `json:"client_id"`
}

func (in introspection) audience() []string {
	var one string
	if json.Unmarshal(in.Aud, &one) == nil {
		return []string{one}
	}
	var many []string
	json.Unmarshal(in.Aud, &many)
	return many
}

// introspectToken asks the authorization server about token (RFC 7662).
// Nothing is cached: a token revoked a moment ago is refused now.
func (v *oauthVerifier) introspectToken(ctx context.Context, token string) (*auth.TokenInfo, error) {
	form := url.Values{"token": {token}, "token_type_hint": {"access_token"}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, v.introspect, strings.NewReader(form.Encode()))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	if id, secret, ok := strings.Cut(v.introspectAuth, ":"); ok {
		req.SetBasicAuth(url.QueryEscape(id), url.QueryEscape(secret)) // RFC 6749 section 2.3.1
	}
	var in introspection
	if err := v.do(req, &in); err != nil && !errors.Is(err, errStatus) {
		return nil, fmt.Errorf("introspecting a token at %s: %w", v.introspect, err)
	} else if err != nil && in.Active {
		return nil, fmt.Errorf("introspecting a token at %s: %w", v.introspect, err)
	}
	now := time.Now()
	switch {
	case !in.Active:
		return nil, invalid("the authorization server says the token is not active")
	case in.Iss != "" && in.Iss != v.issuer:
		return nil, invalid("the token is from another issuer")
	case !oauthex.MatchesResource(in.audience(), v.resource):
		return nil, invalid("the token is for another resource")
	case in.Exp != 0 && now.After(time.Unix(in.Exp, 0).Add(clockLeeway)):
		return nil, invalid("the token has expired")
	case in.Nbf != 0 && now.Add(clockLeeway).Before(time.Unix(in.Nbf, 0)):
		return nil, invalid("the token is not valid yet")
	}
	ti := &auth.TokenInfo{Scopes: strings.Fields(in.Scope), UserID: principal(in.Sub, in.ClientID)}
	if in.Exp != 0 {
		ti.Expiration = time.Unix(in.Exp, 0)
	}
	return ti, nil
}
