// Package cli runs the grove command once main has defined its flags: it
// parses a command line whose flags and directories come in any order
// ([Parse]), sets up logging, signals and metrics, and serves over stdio or
// HTTP, or prints the doctor's report ([Run]). main.go keeps the flag
// definitions and the usage text; everything they set lands in [Options].
//
//	var opts cli.Options
//	fs := flag.NewFlagSet("grove", flag.ContinueOnError)
//	fs.BoolVar(&opts.Server.ReadOnly, "read-only", false, "…")
//	if err := cli.Parse(fs, os.Args[1:], &opts); err != nil { … }
//	os.Exit(cli.Run(opts, stdin, stdout)) // main's own standard input and output
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"syscall"

	"github.com/grove-mcp/grove/server"
	"github.com/grove-mcp/grove/server/httpserve"
	"github.com/grove-mcp/grove/server/stdio"
	"golang.org/x/term"
)

// Options is what the command line decides.
type Options struct {
	Server      server.Config
	Command     string // "" (serve) or "doctor"
	ShowVersion bool   // --version: print it and exit
	LogLevel    string // debug, info, warn or error
	LogFile     string // "" logs to stderr
	HTTP        httpserve.Config
	TokenFile   string // --http-token-file
	MetricsAddr string // --metrics
}

// Run does what opts ask, serving over stdin and stdout (main's: stdout
// carries JSON-RPC only), and returns the process's exit code: 0, 1 when
// serving failed, 2 for a bad set-up.
func Run(opts Options, stdin *os.File, stdout io.Writer) int {
	cfg := opts.Server
	if opts.ShowVersion {
		fmt.Fprint(stdout, VersionLine(cfg.Version)+"\n")
		return 0
	}
	logger, closeLog, err := newLogger(opts.LogLevel, opts.LogFile)
	if err != nil {
		fmt.Fprintf(os.Stderr, "grove: %v\n", err)
		return 2
	}
	defer closeLog()
	cfg.Logger = logger

	ctx, stop := notifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if opts.Command == "doctor" {
		if err := server.Doctor(ctx, stdout, cfg); err != nil {
			fmt.Fprintf(os.Stderr, "grove doctor: %v\n", err)
			return 1
		}
		return 0
	}
	var stopMetrics func()
	if cfg.Metrics, stopMetrics, err = startMetrics(ctx, opts, logger); err != nil {
		fmt.Fprintf(os.Stderr, "grove: %v\n", err)
		return 2
	}
	defer stopMetrics()
	if opts.HTTP.Addr != "" {
		return runHTTP(ctx, cfg, opts)
	}
	if term.IsTerminal(int(stdin.Fd())) {
		fmt.Fprintf(os.Stderr, terminalHint, SelfCommand())
	}
	if err := stdio.Run(ctx, cfg, stdin, stdout); err != nil && !errors.Is(err, context.Canceled) {
		if opts.LogFile != "" {
			logger.Error("server stopped", "err", err)
		}
		fmt.Fprintf(os.Stderr, "grove: %v\n", err)
		return 1
	}
	return 0
}

const terminalHint = `grove is an MCP server: an AI application (Claude Desktop, Claude Code, VS Code, Cursor)
starts it and talks JSON-RPC to it over stdin/stdout. Add it to your client instead of running it here, e.g.:
  claude mcp add grove -- %s --root "$PWD"
Run "grove doctor --root DIR" to see what a client would get, or "grove --help". Waiting for JSON-RPC on stdin...
`

// runHTTP serves MCP over HTTP until SIGINT or SIGTERM, then shuts down
// gracefully and exits 0.
func runHTTP(ctx context.Context, cfg server.Config, opts Options) int {
	hc := opts.HTTP
	hc.Addr = httpserve.Addr(hc.Addr)
	hc.IntrospectAuth = os.Getenv(httpserve.IntrospectAuthEnv)
	hc.Mount = mountMetrics(hc.Mount, cfg.Metrics)
	if hc.AuthIssuer != "" {
		// OAuth: clients bring the authorization server's tokens.
		hc.Ready = func(addr net.Addr) {
			fmt.Fprint(os.Stderr, httpserve.OAuthClientConfig(httpserve.URL(addr, hc.TLSCert != ""), hc.AuthIssuer, hc.Resource))
		}
	} else {
		token, generated, err := httpserve.Token(hc.Addr, opts.TokenFile, os.Getenv(httpserve.TokenEnv))
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
