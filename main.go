// Command grove is an MCP server that gives AI applications the user's
// project files and Git history, and nothing outside the allowed roots.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"syscall"

	"github.com/grove-mcp/grove/server"
	"github.com/grove-mcp/grove/server/httpserve"
	"github.com/grove-mcp/grove/server/stdio"
	"golang.org/x/term"
)

// version is set at release time with -ldflags "-X main.version=v1.2.3".
var version = ""

const usage = `grove: an MCP server for your project files and Git history.

Usage:
  grove [flags] [DIR ...]        serve MCP over stdio (DIRs are roots, like --root)
  grove --http ADDR [flags] DIR  serve MCP over HTTP at http://ADDR/mcp (Streamable HTTP), /sse (HTTP+SSE)
                                 and /ws (WebSocket); see docs/http.md
  grove doctor [flags] [DIR ...] report what a client would get, then exit
  grove help                     print this help

Flags and directories may come in any order; after "--" every argument is a
directory. A directory named like a command needs a path: ./doctor.

Flags:
`

const examples = `
Examples:
  grove --root ~/src/myproject
  grove --root ~/src/app --root ~/notes --read-only
  grove doctor --root ~/src/myproject
  grove --http 127.0.0.1:8848 --root ~/src/myproject

Add it to a client (Claude Code), with the absolute path GUI applications need:
  claude mcp add grove -- %[1]s --root "$PWD"
Any client: command %[2]s, args ["--root", "/absolute/project/path"].

grove reads JSON-RPC on stdin and writes it on stdout; logs go to stderr or --log-file.
`

func main() {
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	cfg, opts, err := parseFlags(args)
	if errors.Is(err, flag.ErrHelp) {
		printUsage(os.Stdout)
		return 0
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "grove: %v (see grove --help)\n", err)
		return 2
	}
	doctor := opts.command == "doctor"
	if opts.version {
		fmt.Println(versionLine(cfg.Version))
		return 0
	}
	logger, closeLog, err := newLogger(opts.logLevel, opts.logFile)
	if err != nil {
		fmt.Fprintf(os.Stderr, "grove: %v\n", err)
		return 2
	}
	defer closeLog()
	cfg.Logger = logger

	ctx, stop := notifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if !doctor {
		var stopMetrics func()
		if cfg.Metrics, stopMetrics, err = startMetrics(ctx, opts, logger); err != nil { // main_metrics.go
			fmt.Fprintf(os.Stderr, "grove: %v\n", err)
			return 2
		}
		defer stopMetrics()
	}
	if opts.http.Addr != "" && !doctor {
		return runHTTP(ctx, cfg, opts)
	}
	if doctor {
		if err := server.Doctor(ctx, os.Stdout, cfg); err != nil {
			fmt.Fprintf(os.Stderr, "grove doctor: %v\n", err)
			return 1
		}
		return 0
	}
	if isTerminal(os.Stdin) {
		fmt.Fprintf(os.Stderr, terminalHint, selfCommand())
	}
	if err := stdio.Run(ctx, cfg, os.Stdin, os.Stdout); err != nil && !errors.Is(err, context.Canceled) {
		if opts.logFile != "" {
			logger.Error("server stopped", "err", err)
		}
		fmt.Fprintf(os.Stderr, "grove: %v\n", err)
		return 1
	}
	return 0
}

// notifyContext is signal.NotifyContext with the signal set-up on a
// goroutine of its own: on a small machine the first signal.Notify (its
// watcher goroutine and the thread that waits for signals) took about a
// millisecond of start-up, which the initialize answer need not wait for.
// Until it is in place a signal has its default effect, as before main ran.
// stop ends the watching and releases the context.
func notifyContext(parent context.Context, sigs ...os.Signal) (context.Context, func()) {
	ctx, cancel := context.WithCancel(parent)
	done := make(chan struct{})
	go func() {
		defer close(done)
		c := make(chan os.Signal, 1)
		signal.Notify(c, sigs...)
		defer signal.Stop(c)
		select {
		case <-c:
			cancel()
		case <-ctx.Done():
		}
	}()
	return ctx, func() { cancel(); <-done }
}

const terminalHint = `grove is an MCP server: an AI application (Claude Desktop, Claude Code, VS Code, Cursor)
starts it and talks JSON-RPC to it over stdin/stdout. Add it to your client instead of running it here, e.g.:
  claude mcp add grove -- %s --root "$PWD"
Run "grove doctor --root DIR" to see what a client would get, or "grove --help". Waiting for JSON-RPC on stdin...
`

// selfCommand is how a client snippet should name this binary: its absolute
// path, because a GUI application does not see the shell's PATH. Under
// "go run" the binary is a temporary file, so the snippet names where
// "go install ." puts grove instead.
func selfCommand() string {
	if exe, ok := installedSelf(); ok {
		return shellQuote(exe)
	}
	return `"$(go env GOPATH)/bin/grove"`
}

// selfJSON is selfCommand for a JSON config, where no shell expands anything.
func selfJSON() string {
	exe, ok := installedSelf()
	if !ok {
		exe = "/absolute/path/to/grove (go list -f '{{.Target}}' . prints it)"
	}
	b, _ := json.Marshal(exe)
	return string(b)
}

func installedSelf() (string, bool) {
	exe, err := os.Executable()
	if err != nil || strings.Contains(filepath.ToSlash(exe), "/go-build") {
		return "", false
	}
	return exe, true
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r == '/' || r == '.' || r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

type flagOpts struct {
	command     string // "" (serve) or "doctor"
	version     bool
	logLevel    string
	logFile     string
	http        httpserve.Config
	tokenFile   string
	metricsAddr string // --metrics: main_metrics.go
}

// runHTTP serves MCP over HTTP until SIGINT or SIGTERM, then shuts down
// gracefully and exits 0.
func runHTTP(ctx context.Context, cfg server.Config, opts flagOpts) int {
	hc := opts.http
	hc.Addr = httpserve.Addr(hc.Addr)
	hc.IntrospectAuth = os.Getenv(httpserve.IntrospectAuthEnv)
	hc.Mount = mountMetrics(hc.Mount, cfg.Metrics) // main_metrics.go
	if hc.AuthIssuer != "" {
		// OAuth: clients bring the authorization server's tokens.
		hc.Ready = func(addr net.Addr) {
			fmt.Fprint(os.Stderr, httpserve.OAuthClientConfig(httpserve.URL(addr, hc.TLSCert != ""), hc.AuthIssuer, hc.Resource))
		}
	} else {
		token, generated, err := httpserve.Token(hc.Addr, opts.tokenFile, os.Getenv(httpserve.TokenEnv))
		if err != nil {
			fmt.Fprintf(os.Stderr, "grove: %v\n", err)
			return 2
		}
		hc.Token = token
		hc.Ready = func(addr net.Addr) {
			fmt.Fprint(os.Stderr, httpserve.ClientConfig(httpserve.URL(addr, hc.TLSCert != ""), token, generated))
		}
	}
	if err := httpserve.Run(ctx, cfg, hc); err != nil {
		fmt.Fprintf(os.Stderr, "grove: %v\n", err)
		return 1
	}
	return 0
}

// commands are the words that, as the first positional argument, name what
// grove does instead of a root.
var commands = map[string]bool{"doctor": true, "help": true}

func newFlagSet(cfg *server.Config, opts *flagOpts) *flag.FlagSet {
	fs := flag.NewFlagSet("grove", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Func("root", "a directory, file or file:// URI grove may use (repeatable); the ceiling for client roots", func(s string) error {
		cfg.Roots = append(cfg.Roots, s)
		return nil
	})
	fs.BoolVar(&cfg.ReadOnly, "read-only", false, "offer no tool that writes files or repositories")
	fs.Int64Var(&cfg.MaxReadBytes, "max-file-size", 10<<20, "largest file, in bytes, that is read whole")
	fs.Int64Var(&cfg.MaxMediaBytes, "max-media-bytes", 5<<20, "largest image or audio file, in bytes, that read_file sends to the model (0: none; larger ones are described)")
	fs.IntVar(&cfg.MaxWatches, "max-watches", 0, "most directories to watch for changes (0: the kernel's limit); past it, subscribed files are polled")
	fs.StringVar(&opts.logLevel, "log-level", "info", "debug, info, warn or error")
	fs.StringVar(&opts.logFile, "log-file", "", "append logs to this file instead of stderr")
	fs.BoolVar(&opts.version, "version", false, "print the version and exit")
	httpFlags(fs, opts)
	metricsFlags(fs, opts)
	fs.Usage = func() {} // a bad flag gets one line from run, not the manual
	return fs
}

// parseFlags reads flags, a command and directories in any order, as
// "grove doctor /dir --read-only" and "grove --root X doctor" mean to a
// person. The flag package stops at the first non-flag, so parsing resumes
// after each positional argument. It returns flag.ErrHelp for -h, --help and
// the help command.
func parseFlags(args []string) (server.Config, flagOpts, error) {
	var cfg server.Config
	var opts flagOpts
	fs := newFlagSet(&cfg, &opts)
	var positional []string
	first := false // positional[0] is a command word, given before any "--"
	for len(args) > 0 {
		if err := fs.Parse(args); err != nil {
			return cfg, opts, err
		}
		rest := fs.Args()
		if used := len(args) - len(rest); used > 0 && args[used-1] == "--" {
			positional = append(positional, rest...) // after "--", no more flags
			break
		}
		if len(rest) == 0 {
			break
		}
		if len(positional) == 0 && commands[rest[0]] {
			first = true
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
	if first {
		opts.command, positional = positional[0], positional[1:]
	}
	if opts.command == "help" {
		return cfg, opts, flag.ErrHelp
	}
	cfg.Roots = append(cfg.Roots, positional...)
	if cfg.MaxReadBytes <= 0 {
		return cfg, opts, errors.New("--max-file-size must be positive")
	}
	switch {
	case cfg.MaxMediaBytes < 0:
		return cfg, opts, errors.New("--max-media-bytes must not be negative")
	case cfg.MaxMediaBytes == 0:
		cfg.MaxMediaBytes = -1 // the server's "none"; its zero means the default
	}
	if h := opts.http; h.MaxBodyBytes <= 0 || h.MaxSessions <= 0 || h.MaxInFlight <= 0 || h.EventsPerSession <= 0 || h.IdleTimeout <= 0 || h.ShutdownGrace <= 0 ||
		h.MaxConns <= 0 || h.MaxConnsPerClient <= 0 {
		return cfg, opts, errors.New("the --http-max-*, --http-events, --http-idle-timeout and --http-shutdown-grace values must be positive")
	}
	cfg.Version = versionString()
	return cfg, opts, nil
}

func httpFlags(fs *flag.FlagSet, opts *flagOpts) {
	hc := &opts.http
	fs.StringVar(&hc.Addr, "http", "", "serve MCP over Streamable HTTP on ADDR (host:port; a bare port means 127.0.0.1) instead of stdio")
	fs.StringVar(&opts.tokenFile, "http-token-file", "", "file holding the bearer token HTTP clients must send (else $"+httpserve.TokenEnv+", else one is generated)")
	fs.Func("http-allow-origin", "an Origin allowed to call over HTTP, like https://app.example (repeatable; none by default)", func(s string) error {
		hc.AllowOrigins = append(hc.AllowOrigins, s)
		return nil
	})
	fs.Func("http-allow-host", "a Host name allowed besides loopback names and the bound address (repeatable)", func(s string) error {
		hc.AllowHosts = append(hc.AllowHosts, s)
		return nil
	})
	fs.StringVar(&hc.TLSCert, "http-tls-cert", "", "PEM certificate (chain) to serve HTTP over TLS with; reloaded on SIGHUP")
	fs.StringVar(&hc.TLSKey, "http-tls-key", "", "PEM private key of --http-tls-cert")
	fs.BoolVar(&hc.Insecure, "http-insecure", false, "allow plain HTTP on an address beyond loopback (a proxy in front ends TLS)")
	fs.StringVar(&hc.AuthIssuer, "http-auth-issuer", "", "OAuth 2.1: the authorization server (issuer URL) whose access tokens clients bring instead of the static token")
	fs.StringVar(&hc.Resource, "http-resource", "", "OAuth 2.1: grove's canonical resource URI, the audience its tokens must name (e.g. https://grove.example/mcp)")
	fs.StringVar(&hc.Introspect, "http-introspect", "", "OAuth 2.1: check each token at this RFC 7662 introspection endpoint (client credentials in $"+httpserve.IntrospectAuthEnv+" as id:secret) instead of as a JWT")
	fs.StringVar(&hc.Instance, "http-instance", "", "a name that starts this instance's session IDs, for a proxy in front of several to route by")
	fs.BoolVar(&hc.TokenReadOnly, "http-token-read-only", false, "the static token gets the grove:read scope only: no tool that writes")
	fs.IntVar(&hc.MaxConns, "http-max-conns", httpserve.DefaultMaxConns, "most TCP connections open at once (503 past it)")
	fs.IntVar(&hc.MaxConnsPerClient, "http-max-conns-per-client", httpserve.DefaultMaxConnsPerClient, "most TCP connections open from one address (503 past it)")
	fs.Int64Var(&hc.MaxBodyBytes, "http-max-body", httpserve.DefaultMaxBodyBytes, "largest HTTP request body in bytes (413 past it)")
	fs.IntVar(&hc.MaxSessions, "http-max-sessions", httpserve.DefaultMaxSessions, "most HTTP sessions and modern listen streams at once (503 past it)")
	fs.DurationVar(&hc.IdleTimeout, "http-idle-timeout", httpserve.DefaultIdleTimeout, "an HTTP session with no request for this long ends (404 after)")
	fs.IntVar(&hc.MaxInFlight, "http-max-in-flight", httpserve.DefaultMaxInFlight, "most requests in flight per HTTP session (429 past it)")
	fs.IntVar(&hc.EventsPerSession, "http-events", httpserve.DefaultEventsPerSession, "notifications kept per HTTP session for a client that reconnects (Last-Event-ID)")
	fs.DurationVar(&hc.ShutdownGrace, "http-shutdown-grace", httpserve.DefaultShutdownGrace, "how long requests in flight get to finish on SIGINT/SIGTERM")
}

func printUsage(w io.Writer) {
	var cfg server.Config
	var opts flagOpts
	fs := newFlagSet(&cfg, &opts)
	fmt.Fprint(w, usage)
	fs.SetOutput(w)
	fs.PrintDefaults()
	fmt.Fprintf(w, examples, selfCommand(), selfJSON())
}

func newLogger(level, file string) (*slog.Logger, func(), error) {
	var lv slog.Level
	if err := lv.UnmarshalText([]byte(strings.ToUpper(level))); err != nil {
		return nil, nil, fmt.Errorf("--log-level %q: want debug, info, warn or error", level)
	}
	var w io.Writer = os.Stderr
	closeLog := func() {}
	if file != "" {
		f, err := os.OpenFile(file, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
		if err != nil {
			return nil, nil, fmt.Errorf("--log-file: %w", err)
		}
		w, closeLog = f, func() { f.Close() }
	}
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: lv})), closeLog, nil
}

// versionString is grove's version: the one the release build sets with
// -ldflags "-X main.version=...", else what the build recorded (see
// versionFrom).
func versionString() string {
	bi, _ := debug.ReadBuildInfo()
	return versionFrom(version, bi)
}

// versionFrom picks the most precise version known: ldflags's; the module's
// (go install ...@v1.2.3, or the pseudo-version Go derives from the
// repository, v0.0.0-20260101120000-abcdef123456); the commit, as
// devel-<12 hex digits>, "+dirty" when the worktree had changes; else
// "devel" (built with -buildvcs=false outside a module download).
func versionFrom(ldflags string, bi *debug.BuildInfo) string {
	if ldflags != "" {
		return ldflags
	}
	if bi == nil {
		return "devel"
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev, dirty string
	for _, s := range bi.Settings {
		switch {
		case s.Key == "vcs.revision":
			rev = s.Value[:min(len(s.Value), 12)]
		case s.Key == "vcs.modified" && s.Value == "true":
			dirty = "+dirty"
		}
	}
	if rev == "" {
		return "devel"
	}
	return "devel-" + rev + dirty
}

// versionLine is what grove --version prints: a bare "devel" says why no
// version is known.
func versionLine(v string) string {
	if v == "devel" {
		return "grove devel (" + runtime.Version() + "; built without a version or commit: " +
			"use go install, or go build with VCS stamping, not -buildvcs=false)"
	}
	return "grove " + v
}

func isTerminal(f *os.File) bool { return term.IsTerminal(int(f.Fd())) }
