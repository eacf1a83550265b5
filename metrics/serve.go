package metrics

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"
)

// ServeOptions configures [Metrics.Serve].
type ServeOptions struct {
	// Token, when set, must come as "Authorization: Bearer <Token>" on every
	// scrape. Without one, only a loopback address may be served.
	Token  string
	Logger *slog.Logger // nil discards
}

// ErrNeedsToken is returned by [Listen] for an address beyond loopback
// without a token: process and request figures are not for the network.
var ErrNeedsToken = errors.New("a metrics address beyond loopback needs a token (--http-token-file or GROVE_HTTP_TOKEN)")

// Listen opens the metrics listener on addr (host:port). It refuses an
// address that is not loopback unless token is set.
func Listen(addr, token string) (net.Listener, error) {
	if token == "" && !loopbackAddr(addr) {
		return nil, fmt.Errorf("--metrics %s: %w", addr, ErrNeedsToken)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("listening for metrics: %w", err)
	}
	if token == "" && !loopbackAddr(ln.Addr().String()) { // "localhost" resolved to something else
		ln.Close()
		return nil, fmt.Errorf("--metrics %s bound %s: %w", addr, ln.Addr(), ErrNeedsToken)
	}
	return ln, nil
}

// loopbackAddr reports whether addr (host:port) names a loopback address or
// "localhost"; an empty host (":9090") means every interface.
func loopbackAddr(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Serve answers scrapes of /metrics on ln until ctx is done. Requests pass
// the same checks as grove's HTTP transport: a Host that names this server
// (DNS rebinding), no Origin (browsers' cross-site requests) and the token
// when one is set (401 with WWW-Authenticate: Bearer otherwise).
func (m *Metrics) Serve(ctx context.Context, ln net.Listener, opts ServeOptions) error {
	logger := opts.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", Protect(m.Handler(), opts.Token, ln.Addr().String()))
	hs := &http.Server{
		Handler:           mux,
		ReadHeaderTimeout: 10 * time.Second,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	select {
	case err := <-served:
		return fmt.Errorf("serving metrics: %w", err)
	case <-ctx.Done():
	}
	shutCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := hs.Shutdown(shutCtx); err != nil {
		hs.Close()
	}
	<-served
	return nil
}

// Protect wraps h with the checks of a metrics listener bound to bound
// (host:port): Host, Origin and, when token is set, the bearer token,
// compared in constant time.
func Protect(h http.Handler, token, bound string) http.Handler {
	sum := sha256.Sum256([]byte(token))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case !hostAllowed(r.Host, bound):
			http.Error(w, "Forbidden: Host header not allowed (DNS rebinding protection)", http.StatusForbidden)
		case r.Header.Get("Origin") != "":
			http.Error(w, "Forbidden: Origin not allowed", http.StatusForbidden)
		case token != "" && !bearerMatches(r.Header.Get("Authorization"), sum):
			w.Header().Set("WWW-Authenticate", `Bearer realm="grove"`)
			http.Error(w, "Unauthorized: send Authorization: Bearer <token>", http.StatusUnauthorized)
		default:
			h.ServeHTTP(w, r)
		}
	})
}

// bearerMatches compares the request's bearer token with the expected one's
// hash (hashing first, so that not even the length shows).
func bearerMatches(header string, want [sha256.Size]byte) bool {
	scheme, tok, ok := strings.Cut(header, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return false
	}
	got := sha256.Sum256([]byte(strings.TrimSpace(tok)))
	return subtle.ConstantTimeCompare(got[:], want[:]) == 1
}

// hostAllowed reports whether a request's Host names this listener: a
// loopback name or address, or the host it is bound to (unless that is the
// unspecified address).
func hostAllowed(hostport, bound string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	switch {
	case host == "":
		return false
	case strings.EqualFold(host, "localhost"):
		return true
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return true
	}
	bh, _, err := net.SplitHostPort(bound)
	if err != nil || !strings.EqualFold(host, bh) {
		return false
	}
	ip := net.ParseIP(bh)
	return ip == nil || !ip.IsUnspecified()
}
