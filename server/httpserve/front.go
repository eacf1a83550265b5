package httpserve

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"crypto/tls"
	"log/slog"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/grove-mcp/grove/metrics"
	"github.com/grove-mcp/grove/server"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// front is grove's HTTP face: the checks every request passes (Host,
// Origin, token, limits), then the SDK's Streamable HTTP handlers, one per
// protocol era.
type front struct {
	mcp    *mcp.Server
	hc     Config
	logger *slog.Logger
	bound  string // the address listened on, host:port
	token  [sha256.Size]byte
	verify auth.TokenVerifier // f.verifyStatic, or an OAuth verifier's
	prm    http.Handler       // Protected Resource Metadata, with OAuth
	prmURL string             // where it is, for the 401 challenge
	tls    *tls.Config        // nil: plain HTTP

	legacy *mcp.StreamableHTTPHandler // sessions: initialize, Mcp-Session-Id, GET stream, DELETE
	events *eventStore                // the legacy sessions' streams, for resumption
	modern *mcp.StreamableHTTPHandler // 2026-07-28: every request stands alone

	draining atomic.Bool // shutting down: new requests get 503

	mu         sync.Mutex                 // guards the fields below
	pending    int                        // new sessions being set up
	listens    int                        // modern subscriptions/listen streams open
	conns      int                        // HTTP+SSE and WebSocket sessions open
	principals map[string]*auth.TokenInfo // by session ID, the token of each HTTP+SSE and WebSocket session
	tools      map[string]bool            // whether each tool only reads, as last listed; see scopes.go
	listed     time.Time                  // when tools was filled
	inFlight   map[string]int             // requests in flight by session ID (modernKey for modern requests)
	working    int                        // requests in flight, which shutdown lets finish
	idle       chan struct{}              // closed when working drops to 0; nil while it is 0
}

// newFront puts the checks and handlers in front of s, which cfg built.
func newFront(s *server.Server, cfg server.Config, hc Config, bound string) *front {
	f := &front{mcp: s.MCP(), hc: hc, bound: bound, logger: logger(cfg).With("component", "http"),
		token: sha256.Sum256([]byte(hc.Token)), inFlight: make(map[string]int)}
	f.verify = f.verifyStatic
	f.principals = make(map[string]*auth.TokenInfo)
	f.mcp.AddReceivingMiddleware(f.scopeTools)
	getServer := func(*http.Request) *mcp.Server { return f.mcp }
	f.events = newEventStore(hc.EventsPerSession, eventBytesPerSession, 2*hc.MaxSessions)
	f.events.onLost = func(method string) { cfg.Metrics.NotificationDropped(method, metrics.DropEvicted) }
	f.legacy = mcp.NewStreamableHTTPHandler(getServer, &mcp.StreamableHTTPOptions{
		Logger:              f.logger.With("era", "legacy"),
		EventStore:          f.events,
		SessionTimeout:      hc.IdleTimeout,
		MaxRequestBodyBytes: hc.MaxBodyBytes,
		// The SDK checks Host only on a loopback socket, and would refuse a
		// name the operator allowed; hostAllowed checks every request.
		DisableLocalhostProtection: true,
	})
	f.modern = mcp.NewStreamableHTTPHandler(getServer, &mcp.StreamableHTTPOptions{
		Stateless:                    true,
		Logger:                       f.logger.With("era", "modern"),
		MaxRequestBodyBytes:          hc.MaxBodyBytes,
		PropagateRequestCancellation: true, // a modern client that hangs up has cancelled
		DisableLocalhostProtection:   true,
	})
	return f
}

// mux serves /mcp, /sse, /ws and the operator's extra paths (Config.Mount), all
// behind the same checks; every other path is 404.
func (f *front) mux() http.Handler {
	mux := http.NewServeMux()
	if f.prm != nil { // public, for clients to discover the authorization server: no token, any Origin
		mux.Handle(metadataPath, f.hostOnly(f.prm))
		mux.Handle(metadataPath+"/", f.hostOnly(f.prm))
	}
	mux.Handle("/mcp", f.guard(f.writeDeadlines(http.HandlerFunc(f.limit))))
	mux.Handle("/sse", f.guard(f.writeDeadlines(newSSEHandler(f))))
	mux.Handle("/ws", queryToken(f.guard(wsHandler{f})))
	for path, h := range f.hc.Mount {
		mux.Handle(path, f.guard(h))
	}
	return jsonErrors(mux)
}

// guard runs the checks every request passes, outermost first, each
// answering before anything behind it runs: shutting down, Host, Origin,
// token.
func (f *front) guard(next http.Handler) http.Handler {
	bearer := auth.RequireBearerToken(f.verify, &auth.RequireBearerTokenOptions{
		AllowMissingExpiration: true, // the static token; OAuth verifiers check expiry themselves
		ClockSkew:              clockLeeway,
		ResourceMetadataURL:    f.prmURL,
	})(f.requireScope(next))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case f.draining.Load() && r.Method != http.MethodPost: // a POST may answer a request in flight; see limit
			f.refuseDraining(w)
		case !f.hostAllowed(r.Host):
			http.Error(w, "Forbidden: Host header not allowed (DNS rebinding protection)", http.StatusForbidden)
		case !f.originAllowed(r.Header.Values("Origin"), r.Host):
			http.Error(w, "Forbidden: Origin not allowed", http.StatusForbidden)
		default:
			bearer.ServeHTTP(w, r)
		}
	})
}

func (f *front) refuseDraining(w http.ResponseWriter) {
	w.Header().Set("Connection", "close")
	http.Error(w, "Service Unavailable: grove is shutting down", http.StatusServiceUnavailable)
}

// verifyStatic checks a bearer token against the operator's in constant
// time (hashing both first, so that not even the length shows).
func (f *front) verifyStatic(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
	got := sha256.Sum256([]byte(token))
	if f.hc.Token == "" || subtle.ConstantTimeCompare(got[:], f.token[:]) != 1 {
		return nil, auth.ErrInvalidToken
	}
	scopes := []string{ScopeRead, ScopeWrite}
	if f.hc.TokenReadOnly {
		scopes = scopes[:1]
	}
	// One token, one user: the SDK ties each session to the user that made it.
	return &auth.TokenInfo{UserID: "grove-operator", Scopes: scopes}, nil
}

// useOAuth makes v the judge of tokens, and serves grove's Protected
// Resource Metadata. It must come before mux.
func (f *front) useOAuth(v *oauthVerifier) {
	f.verify = v.verify
	f.prm = v.metadata()
	f.prmURL = metadataURL(v.resource)
}

// hostOnly runs the Host check alone, for public documents.
func (f *front) hostOnly(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !f.hostAllowed(r.Host) {
			http.Error(w, "Forbidden: Host header not allowed (DNS rebinding protection)", http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// hostAllowed reports whether a request's Host names this server: a
// loopback name or address, the address grove bound, or a name the operator
// allowed. A page on evil.example that rebinds its name to 127.0.0.1 sends
// Host: evil.example, and is refused.
func (f *front) hostAllowed(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if host == "" {
		return false
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return true
	}
	if bh, _, err := net.SplitHostPort(f.bound); err == nil && strings.EqualFold(host, bh) {
		if ip := net.ParseIP(bh); ip == nil || !ip.IsUnspecified() {
			return true
		}
	}
	return slices.ContainsFunc(f.hc.AllowHosts, func(h string) bool { return strings.EqualFold(h, host) })
}

// originAllowed reports whether a request's Origin, if it has one, is in the
// allow-list or is grove's own origin (http and the Host the request was
// sent to, itself already checked). Browsers send Origin on cross-site
// requests; a client that is not a browser sends none. A page on another
// origin, a rebound name included, never matches: its Origin names its own
// host.
func (f *front) originAllowed(origins []string, host string) bool {
	for _, o := range origins {
		if strings.EqualFold(o, f.scheme()+"://"+host) && f.hostAllowed(host) {
			continue
		}
		if !slices.ContainsFunc(f.hc.AllowOrigins, func(a string) bool { return strings.EqualFold(strings.TrimSuffix(a, "/"), o) }) {
			return false
		}
	}
	return true
}

// scheme is how clients reach grove: https under TLS.
func (f *front) scheme() string {
	if f.tls != nil {
		return "https"
	}
	return "http"
}

// route sends a request to the handler of its era: the 2026-07-28 protocol
// says its version in the MCP-Protocol-Version header of every request.
func (f *front) route(w http.ResponseWriter, r *http.Request) {
	if modernHeader(r) {
		f.modern.ServeHTTP(w, r)
		return
	}
	f.legacy.ServeHTTP(w, r)
}

func modernHeader(r *http.Request) bool {
	return r.Header.Get("Mcp-Protocol-Version") >= server.ModernVersion
}
