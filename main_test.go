package main

import (
	"errors"
	"flag"
	"testing"

	"github.com/google/go-cmp/cmp"
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
	} {
		t.Run(tt.name, func(t *testing.T) {
			cfg, opts, err := parseFlags(tt.args)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("parseFlags(%q) error = %v, want %v", tt.args, err, tt.wantErr)
			}
			if opts.command != tt.command {
				t.Errorf("command = %q, want %q", opts.command, tt.command)
			}
			if err != nil {
				return
			}
			if diff := cmp.Diff(tt.roots, cfg.Roots); diff != "" {
				t.Errorf("roots mismatch (-want +got):\n%s", diff)
			}
			if cfg.ReadOnly != tt.readOnly {
				t.Errorf("ReadOnly = %v, want %v", cfg.ReadOnly, tt.readOnly)
			}
		})
	}
}

func TestParseFlagsBadFlagAfterDir(t *testing.T) {
	if _, _, err := parseFlags([]string{"/a", "--no-such-flag"}); err == nil {
		t.Fatal("an unknown flag after a directory was accepted")
	}
}
