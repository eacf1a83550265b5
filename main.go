// Command grove is an MCP server that gives AI applications the user's
// project files and Git history, and nothing outside the allowed roots.
//
// This file holds the flags and the usage text; package cli parses the
// command line and runs what it asks.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/grove-mcp/grove/internal/cli"
	"github.com/grove-mcp/grove/server/httpserve"
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
	opts, err := parseFlags(args)
	if errors.Is(err, flag.ErrHelp) {
		printUsage(os.Stdout)
		return 0
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "grove: %v (see grove --help)\n", err)
		return 2
	}
	return cli.Run(opts, os.Stdin, os.Stdout)
}

// parseFlags reads the command line (see [cli.Parse]); it returns
// flag.ErrHelp for -h, --help and the help command.
func parseFlags(args []string) (cli.Options, error) {
	var opts cli.Options
	err := cli.Parse(newFlagSet(&opts), args, &opts)
	opts.Server.Version = cli.Version(version)
	return opts, err
}

func newFlagSet(opts *cli.Options) *flag.FlagSet {
	cfg := &opts.Server
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
	fs.StringVar(&opts.LogLevel, "log-level", "info", "debug, info, warn or error")
	fs.StringVar(&opts.LogFile, "log-file", "", "append logs to this file instead of stderr")
	fs.BoolVar(&opts.ShowVersion, "version", false, "print the version and exit")
	httpFlags(fs, opts)
	fs.StringVar(&opts.MetricsAddr, "metrics", "", "serve Prometheus metrics at http://ADDR/metrics (loopback only unless a token is set with --http-token-file or $"+httpserve.TokenEnv+"; --http serves them at /metrics too)")
	fs.Usage = func() {} // a bad flag gets one line from run, not the manual
	return fs
}

func httpFlags(fs *flag.FlagSet, opts *cli.Options) {
	hc := &opts.HTTP
	fs.StringVar(&hc.Addr, "http", "", "serve MCP over Streamable HTTP on ADDR (host:port; a bare port means 127.0.0.1) instead of stdio")
	fs.StringVar(&opts.TokenFile, "http-token-file", "", "file holding the bearer token HTTP clients must send (else $"+httpserve.TokenEnv+", else one is generated)")
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
	var opts cli.Options
	fs := newFlagSet(&opts)
	fmt.Fprint(w, usage)
	fs.SetOutput(w)
	fs.PrintDefaults()
	fmt.Fprintf(w, examples, cli.SelfCommand(), cli.SelfJSON())
}
