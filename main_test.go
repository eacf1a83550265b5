package main

import (
	"errors"
	"flag"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/grove-mcp/grove/server/httpserve"
)

func TestParseFlags(t *testing.T) {
	for _, tt := range []struct {
		name     string
		args     []string
		command  string
		roots    []string
		readOnly bool
		wantErr  error
	}{
		{name: "flags first", args: []string{"--root", "/a", "--read-only"}, roots: []string{"/a"}, readOnly: true},
		{name: "positional then flag", args: []string{"/a", "--read-only"}, roots: []string{"/a"}, readOnly: true},
		{name: "doctor then dir then flag", args: []string{"doctor", "/dir", "--read-only"}, command: "doctor", roots: []string{"/dir"}, readOnly: true},
		{name: "flag then doctor", args: []string{"--root", "X", "doctor"}, command: "doctor", roots: []string{"X"}},
		{name: "interleaved", args: []string{"/a", "--root", "/b", "/c", "--log-level", "debug"}, roots: []string{"/b", "/a", "/c"}},
		{name: "help command", args: []string{"help"}, command: "help", wantErr: flag.ErrHelp},
		{name: "help flag after dir", args: []string{"/a", "--help"}, wantErr: flag.ErrHelp},
		{name: "after -- all are dirs", args: []string{"--", "doctor", "--read-only"}, roots: []string{"doctor", "--read-only"}},
		{name: "-- after a dir", args: []string{"/a", "--", "-x"}, roots: []string{"/a", "-x"}},
		{name: "command word later is a dir", args: []string{"/a", "doctor"}, roots: []string{"/a", "doctor"}},
		{name: "dot-slash dir named like a command", args: []string{"./doctor"}, roots: []string{"./doctor"}},
		// What the MCP Bundle's manifest (packaging/mcpb) makes of a read-only
		// switch and two chosen folders.
		{name: "bundle args", args: []string{"--read-only=true", "--", "/a", "/-b"}, roots: []string{"/a", "/-b"}, readOnly: true},
		{name: "bundle args, writable", args: []string{"--read-only=false", "--", "/a"}, roots: []string{"/a"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			opts, err := parseFlags(tt.args)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("parseFlags(%q) error = %v, want %v", tt.args, err, tt.wantErr)
			}
			if opts.Command != tt.command {
				t.Errorf("command = %q, want %q", opts.Command, tt.command)
			}
			if err != nil {
				return
			}
			if diff := cmp.Diff(tt.roots, opts.Server.Roots); diff != "" {
				t.Errorf("roots mismatch (-want +got):\n%s", diff)
			}
			if opts.Server.ReadOnly != tt.readOnly {
				t.Errorf("ReadOnly = %v, want %v", opts.Server.ReadOnly, tt.readOnly)
			}
		})
	}
}

func TestParseFlagsHTTP(t *testing.T) {
	opts, err := parseFlags([]string{"/a", "--http", "127.0.0.1:9000", "--http-allow-origin", "https://a.example",
		"/b", "--http-allow-origin", "https://b.example", "--http-max-sessions", "3", "--http-idle-timeout", "90s",
		"--http-token-file", "/tok", "--http-allow-host", "box.lan"})
	if err != nil {
		t.Fatal(err)
	}
	got := []any{opts.Server.Roots, opts.HTTP.Addr, opts.HTTP.AllowOrigins, opts.HTTP.MaxSessions, opts.HTTP.IdleTimeout.String(),
		opts.TokenFile, opts.HTTP.AllowHosts, opts.HTTP.MaxInFlight}
	want := []any{[]string{"/a", "/b"}, "127.0.0.1:9000", []string{"https://a.example", "https://b.example"}, 3, "1m30s",
		"/tok", []string{"box.lan"}, httpserve.DefaultMaxInFlight}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("HTTP flags mismatch (-want +got):\n%s", diff)
	}
	if _, err := parseFlags([]string{"--http", ":1", "--http-max-body", "0"}); err == nil {
		t.Error("--http-max-body 0 was accepted")
	}
}

func TestParseFlagsMaxMedia(t *testing.T) {
	for _, tt := range []struct {
		args    []string
		want    int64
		wantErr bool
	}{
		{args: nil, want: 5 << 20},
		{args: []string{"--max-media-bytes", "1000"}, want: 1000},
		{args: []string{"--max-media-bytes", "0"}, want: -1}, // none: the server's zero means its default
		{args: []string{"--max-media-bytes", "-5"}, wantErr: true},
	} {
		opts, err := parseFlags(tt.args)
		if (err != nil) != tt.wantErr || err == nil && opts.Server.MaxMediaBytes != tt.want {
			t.Errorf("parseFlags(%q): MaxMediaBytes %d, err %v; want %d, error %v", tt.args, opts.Server.MaxMediaBytes, err, tt.want, tt.wantErr)
		}
	}
}

func TestParseFlagsBadFlagAfterDir(t *testing.T) {
	if _, err := parseFlags([]string{"/a", "--no-such-flag"}); err == nil {
		t.Fatal("an unknown flag after a directory was accepted")
	}
}

// TestSnippetsUnderGoRun: a test binary lives in the go-build cache, as a
// "go run" binary does, so the snippets name where "go install ." puts grove
// rather than a temporary file.
func TestSnippetsUnderGoRun(t *testing.T) {
	var b strings.Builder
	printUsage(&b)
	for _, want := range []string{`claude mcp add grove -- "$(go env GOPATH)/bin/grove" --root "$PWD"`, `go list -f '{{.Target}}' .`} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("help lacks %s:\n%s", want, b.String())
		}
	}
}
