// Package server wires grove's features (files, Git, prompts, watches) to the
// MCP SDK, in both protocol eras: legacy (initialize, up to 2025-11-25) and
// modern (2026-07-28: server/discover and per-request _meta). It owns no
// transport: package stdio serves a [Server] over stdin and stdout, package
// httpserve over HTTP; both import this one, never the other way round.
//
//	s, err := server.New(server.Config{Roots: []string{"/home/me/project"}})
//	...
//	err = s.MCP().Run(ctx, transport)
//
// The server owns the roots policy at run time: the operator's roots from
// [Config], narrowed by the client's (see clientroots.go), handed to every
// feature through [scope.Provider].
//
// The HTTP transports build a Server with [Config.MultiSession] and serve
// [Server.MCP].
package server

import (
	_ "embed"
	"errors"
	"log/slog"

	"github.com/grove-mcp/grove/fsres"
	"github.com/grove-mcp/grove/gittools"
	"github.com/grove-mcp/grove/metrics"
	"github.com/grove-mcp/grove/prompts"
	"github.com/grove-mcp/grove/roots"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Config is what the operator decides.
type Config struct {
	Roots        []string // --root values: directories, files or file:// URIs; the ceiling
	ReadOnly     bool     // no tool that writes files or repositories
	MaxReadBytes int64    // largest file read whole; 0 means 10 MiB
	MaxWatches   int      // most directories watched; 0 means the kernel's limit
	Version      string
	Logger       *slog.Logger     // nil discards
	Metrics      *metrics.Metrics // nil: no metrics (see metrics.go)

	// MaxMediaBytes is the largest image or audio file read_file sends to
	// the model; 0 means 5 MiB, a negative value none.
	MaxMediaBytes int64

	// MultiSession serves many sessions at once, each with client roots of
	// its own; the HTTP transports (package httpserve) set it.
	MultiSession bool
	// SessionID makes the IDs of new sessions; nil makes random ones. The
	// HTTP transports prefix them with the instance's name, for a proxy in
	// front of several instances to route by.
	SessionID func() string
}

// ModernVersion is the first protocol revision of the modern era
// (stateless, per-request _meta); transports route requests by it.
const ModernVersion = modernVersion

//go:embed instructions.md
var instructions string

// Server is a configured grove, ready to serve sessions.
type Server struct {
	cfg    Config
	logger *slog.Logger
	set    *roots.Set
	client *clientRoots // the session's, over stdio; see clientFor
	multi  *sessions    // over HTTP: each session's client roots; nil over stdio
	mcp    *mcp.Server
	closer []func() error

	files   *fsres.Files
	repos   *gittools.Repos
	prompts *prompts.Prompts
	notify  *notifier
	watcher *rootsWatcher

	watchStatus func() string // non-empty when change notifications are degraded
	clientLog   *clientLog    // forwards records marked for the client as notifications/message
	listSent    sentSignal    // fires when a resources list_changed is written
	tools       lazyTools     // registered after start-up
	background  afterFirst    // watches and warm-up, started by the first message
}

// New builds a server from cfg. The roots in cfg must exist.
func New(cfg Config) (*Server, error) {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.MaxReadBytes <= 0 {
		cfg.MaxReadBytes = 10 << 20
	}
	set, err := roots.NewSet(cfg.Roots, cfg.Logger)
	if err != nil {
		return nil, err
	}
	clientLog := newClientLog()
	logger := slog.New(slog.NewMultiHandler(cfg.Logger.Handler(), clientLog)) // records for the client go to it too
	s := &Server{cfg: cfg, logger: logger, set: set, clientLog: clientLog}
	s.client = newClientRoots(set, logger)
	if cfg.MultiSession {
		s.multi = newSessions(s)
	}
	s.mcp = mcp.NewServer(&mcp.Implementation{
		Name:    "grove",
		Title:   "grove: project files and Git history",
		Version: cfg.Version,
	}, s.options())
	clientLog.attach(s.mcp)
	if err := s.addFeatures(); err != nil {
		s.Close()
		return nil, err
	}
	s.instrument()
	return s, nil
}

func (s *Server) options() *mcp.ServerOptions {
	opts := &mcp.ServerOptions{
		Instructions: instructions,
		Logger:       s.sdkLogger(),
		Capabilities: &mcp.ServerCapabilities{
			Completions: &mcp.CompletionCapabilities{},
			Logging:     &mcp.LoggingCapabilities{},
			Prompts:     &mcp.PromptCapabilities{ListChanged: true},
			Resources:   &mcp.ResourceCapabilities{Subscribe: true, ListChanged: true},
			Tools:       &mcp.ToolCapabilities{ListChanged: true},
		},
		CompletionHandler: s.complete,
		GetSessionID:      s.cfg.SessionID,
	}
	s.installClientRoots(opts)
	s.installFeatureOptions(opts)
	return opts
}

// MCP returns the SDK server, for tests and embedding.
func (s *Server) MCP() *mcp.Server { return s.mcp }

// Logger returns the server's logger, which also forwards the records marked
// for the client; transports log through it.
func (s *Server) Logger() *slog.Logger { return s.logger }

// Roots returns the roots set, for tests and the doctor report.
func (s *Server) Roots() *roots.Set { return s.set }

// Close releases watches and open repositories.
func (s *Server) Close() error {
	var errs []error
	for i := len(s.closer) - 1; i >= 0; i-- {
		errs = append(errs, s.closer[i]())
	}
	s.closer = nil
	return errors.Join(errs...)
}
