package cli

import (
	"errors"
	"flag"
)

// commands are the words that, as the first positional argument, name what
// grove does instead of a root.
var commands = map[string]bool{"doctor": true, "help": true}

// Parse reads flags (defined on fs, writing into opts), a command and
// directories in any order, as "grove doctor /dir --read-only" and
// "grove --root X doctor" mean to a person; after "--" every argument is a
// directory. The flag package stops at the first non-flag, so parsing
// resumes after each positional argument. Parse returns flag.ErrHelp for -h,
// --help and the help command, and an error for a value out of range.
func Parse(fs *flag.FlagSet, args []string, opts *Options) error {
	var positional []string
	first := false // positional[0] is a command word, given before any "--"
	for len(args) > 0 {
		if err := fs.Parse(args); err != nil {
			return err
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
		opts.Command, positional = positional[0], positional[1:]
	}
	if opts.Command == "help" {
		return flag.ErrHelp
	}
	opts.Server.Roots = append(opts.Server.Roots, positional...)
	return opts.check()
}

// check refuses values out of range, and turns --max-media-bytes 0 into the
// server's "none".
func (opts *Options) check() error {
	cfg := &opts.Server
	if cfg.MaxReadBytes <= 0 {
		return errors.New("--max-file-size must be positive")
	}
	switch {
	case cfg.MaxMediaBytes < 0:
		return errors.New("--max-media-bytes must not be negative")
	case cfg.MaxMediaBytes == 0:
		cfg.MaxMediaBytes = -1 // the server's "none"; its zero means the default
	}
	if h := opts.HTTP; h.MaxBodyBytes <= 0 || h.MaxSessions <= 0 || h.MaxInFlight <= 0 || h.EventsPerSession <= 0 || h.IdleTimeout <= 0 || h.ShutdownGrace <= 0 ||
		h.MaxConns <= 0 || h.MaxConnsPerClient <= 0 {
		return errors.New("the --http-max-*, --http-events, --http-idle-timeout and --http-shutdown-grace values must be positive")
	}
	return nil
}
