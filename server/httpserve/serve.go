// Package httpserve serves a grove [server.Server] over HTTP: MCP's Streamable
// HTTP transport at /mcp, in both protocol eras. It owns everything between
// the socket and the SDK's handlers: the Host, Origin and bearer-token
// checks, the limits (body size, sessions, requests in flight, idle
// sessions), the per-session event store for resumable streams, JSON-RPC
// error bodies for HTTP refusals, and a graceful shutdown. What a client may
// reach is the server's business, not the transport's.
//
//	err := httpserve.Run(ctx, server.Config{Roots: roots},
//		httpserve.Config{Addr: "127.0.0.1:8848", Token: token})
//
// The operator's side (the token, the URL, the configuration a client
// pastes) is in token.go; docs/http.md is the user's guide.
package httpserve

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/grove-mcp/grove/server"
)

// Config is what the operator decides for the HTTP transport
// (grove --http ADDR). Zero limits mean the defaults below.
type Config struct {
	Addr         string   // host:port to listen on
	Token        string   // the bearer token every request must carry; required
	AllowOrigins []string // Origin header values allowed (scheme://host[:port]); none by default
	AllowHosts   []string // Host header names allowed besides loopback names and the bound address

	// TLSCert and TLSKey are PEM files (--http-tls-cert, --http-tls-key):
	// every transport is then served over TLS 1.2 or later, and the pair is
	// read again on SIGHUP. Without them, a bind beyond loopback needs
	// Insecure (--http-insecure: a proxy in front ends TLS).
	TLSCert, TLSKey string
	Insecure        bool

	// With AuthIssuer (--http-auth-issuer), grove is an OAuth 2.1 resource
	// server: requests carry access tokens that the authorization server
	// issued for Resource (--http-resource, grove's canonical URI), checked
	// as JWTs against the server's published keys, or by asking its
	// Introspect endpoint (--http-introspect, RFC 7662) with IntrospectAuth
	// ("client_id:client_secret", from $GROVE_HTTP_INTROSPECT_AUTH). Token
	// is not accepted then.
	AuthIssuer, Resource, Introspect, IntrospectAuth string
	// Instance (--http-instance) starts every session ID this grove makes,
	// followed by "-", so that a proxy in front of several can send a
	// session's requests to the one that holds it (docs/http.md).
	Instance string

	// TokenReadOnly (--http-token-read-only) gives Token the grove:read
	// scope only: no tool that writes.
	TokenReadOnly bool

	MaxConns          int // most TCP connections open (503 past it)
	MaxConnsPerClient int // most TCP connections open from one address (503 past it)

	MaxBodyBytes     int64         // largest request body (413 past it)
	MaxSessions      int           // most live sessions and modern listen streams (503 past it)
	IdleTimeout      time.Duration // a legacy session with no request for this long ends (404 after)
	MaxInFlight      int           // most requests one session has in flight (429 past it)
	EventsPerSession int           // notifications kept per session for resumption (Last-Event-ID)
	ShutdownGrace    time.Duration // how long in-flight requests get to finish on SIGINT/SIGTERM

	// Mount serves more paths (e.g. "/metrics") on the same listener, behind
	// the same Host, Origin and token checks; the MCP limits are /mcp's.
	Mount map[string]http.Handler

	bodyTimeout  time.Duration // how long a request body may take to arrive; tests shorten it
	writeTimeout time.Duration // how long a client may take to read a message (any transport); tests shorten it

	// Ready, when set, is called once grove listens, with the address it
	// bound (the port is known then when Addr asked for port 0).
	Ready func(addr net.Addr)
}

// Defaults of [Config], documented in docs/http.md.
const (
	DefaultMaxBodyBytes     = 4 << 20 // the SDK's own default; a request is JSON, a write_file's text at most
	DefaultMaxSessions      = 64
	DefaultIdleTimeout      = 30 * time.Minute
	DefaultMaxInFlight      = 16
	DefaultEventsPerSession = 256
	DefaultShutdownGrace    = 10 * time.Second
	// DefaultMaxConns is far above DefaultMaxSessions: a session may hold a
	// stream and send requests on other connections at once.
	DefaultMaxConns          = 1024
	DefaultMaxConnsPerClient = 256
	// eventBytesPerSession bounds the bytes of one session's kept events,
	// whatever their number.
	eventBytesPerSession = 1 << 20
	// bodyReadTimeout bounds how long a request body may take to arrive: a
	// client that sends headers and then a byte a minute must not hold a
	// connection and a goroutine forever. (http.Server.ReadTimeout cannot
	// do it: it would also end the long-lived event streams.)
	bodyReadTimeout = 30 * time.Second
)

func (hc *Config) defaults() {
	if hc.MaxBodyBytes <= 0 {
		hc.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if hc.MaxSessions <= 0 {
		hc.MaxSessions = DefaultMaxSessions
	}
	if hc.IdleTimeout <= 0 {
		hc.IdleTimeout = DefaultIdleTimeout
	}
	if hc.MaxInFlight <= 0 {
		hc.MaxInFlight = DefaultMaxInFlight
	}
	if hc.EventsPerSession <= 0 {
		hc.EventsPerSession = DefaultEventsPerSession
	}
	if hc.ShutdownGrace <= 0 {
		hc.ShutdownGrace = DefaultShutdownGrace
	}
	if hc.MaxConns <= 0 {
		hc.MaxConns = DefaultMaxConns
	}
	if hc.MaxConnsPerClient <= 0 {
		hc.MaxConnsPerClient = DefaultMaxConnsPerClient
	}
	if hc.bodyTimeout <= 0 {
		hc.bodyTimeout = bodyReadTimeout
	}
	if hc.writeTimeout <= 0 {
		hc.writeTimeout = wsWriteTimeout
	}
}

// ErrNoRoots is returned by [Run] without --root: over HTTP, client
// roots alone would let a remote client name any directory.
var ErrNoRoots = errors.New("--http needs at least one --root: over HTTP a client's roots only narrow the operator's")

// Run serves MCP over Streamable HTTP at /mcp on hc.Addr until ctx is
// done, then shuts down gracefully: it stops accepting, lets requests in
// flight finish (up to hc.ShutdownGrace), ends the sessions and their
// streams, and returns nil.
func Run(ctx context.Context, cfg server.Config, hc Config) error {
	if len(cfg.Roots) == 0 {
		return ErrNoRoots
	}
	if hc.Token == "" && hc.AuthIssuer == "" {
		return errors.New("httpserve.Run needs a token or an authorization server")
	}
	hc.defaults()
	log := logger(cfg)
	var certs *certReloader
	if hc.TLSCert != "" || hc.TLSKey != "" {
		var err error
		if certs, err = newCertReloader(hc.TLSCert, hc.TLSKey, log.With("component", "tls")); err != nil {
			return err
		}
	} else if !Loopback(hc.Addr) && !hc.Insecure {
		return fmt.Errorf("--http %s: %w", hc.Addr, ErrPlainBeyondLoopback)
	}
	cfg.MultiSession = true
	cfg.SessionID = hc.newSessionID
	s, err := server.New(cfg)
	if err != nil {
		return err
	}
	defer s.Close()
	ln, err := net.Listen("tcp", hc.Addr)
	if err != nil {
		return fmt.Errorf("listening for HTTP: %w", err)
	}
	f := newFront(s, cfg, hc, ln.Addr().String())
	if hc.AuthIssuer != "" {
		v, err := newOAuthVerifier(ctx, hc, log.With("component", "oauth"))
		if err != nil {
			ln.Close()
			return err
		}
		f.useOAuth(v)
	}
	var wg sync.WaitGroup
	defer wg.Wait()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if certs != nil {
		f.tls = certs.config()
		sig := make(chan os.Signal, 1)
		signal.Notify(sig, syscall.SIGHUP)
		defer signal.Stop(sig)
		wg.Go(func() { certs.watch(ctx, sig) })
	}
	if hc.Ready != nil {
		hc.Ready(ln.Addr())
	}
	f.logger.Info("serving MCP over HTTP", "addr", ln.Addr().String(), "tls", certs != nil, "paths", "/mcp /sse /ws")
	return f.serve(ctx, ln)
}

// serve answers on ln until ctx is done, then shuts down.
func (f *front) serve(ctx context.Context, ln net.Listener) error {
	hs := &http.Server{
		Handler:           f.mux(),
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute, // a kept-alive connection with no request; sessions outlive it
		ErrorLog:          slog.NewLogLogger(f.logger.Handler(), slog.LevelWarn),
	}
	ln = newLimitListener(ln, f.hc.MaxConns, f.hc.MaxConnsPerClient, f.tls == nil)
	served := make(chan error, 1)
	if f.tls != nil {
		hs.TLSConfig = f.tls
		go func() { served <- hs.ServeTLS(ln, "", "") }()
	} else {
		go func() { served <- hs.Serve(ln) }()
	}
	select {
	case err := <-served:
		return fmt.Errorf("serving HTTP: %w", err)
	case <-ctx.Done():
	}
	f.shutdown(hs)
	<-served // http.ErrServerClosed
	return nil
}

// shutdown stops accepting, waits for the requests in flight (bounded by the
// grace period), then ends every session, which ends the streams that
// http.Server.Shutdown would otherwise wait for forever.
func (f *front) shutdown(hs *http.Server) {
	f.draining.Store(true)
	ctx, cancel := context.WithTimeout(context.Background(), f.hc.ShutdownGrace)
	defer cancel()
	shut := make(chan error, 1)
	go func() { shut <- hs.Shutdown(ctx) }()
	f.waitWork(ctx)
	f.logger.Info("shutting down: ending sessions")
	var wg sync.WaitGroup
	for ss := range f.mcp.Sessions() {
		wg.Go(func() { ss.Close() }) // a WebSocket's close handshake may take seconds
	}
	wg.Wait()
	if err := <-shut; err != nil {
		f.logger.Warn("shutdown grace ran out; closing connections", "err", err)
		hs.Close()
	}
}

// logger is the operator's logger, or one that discards.
func logger(cfg server.Config) *slog.Logger {
	if cfg.Logger == nil {
		return slog.New(slog.DiscardHandler)
	}
	return cfg.Logger
}

// newSessionID makes a session ID, prefixed with the instance's name.
func (hc *Config) newSessionID() string {
	if hc.Instance == "" {
		return rand.Text()
	}
	return hc.Instance + "-" + rand.Text()
}
