// Package stdio serves a grove [server.Server] over stdin and stdout:
// newline-delimited JSON-RPC, one client, until the end of its input.
//
//	err := stdio.Run(ctx, server.Config{Roots: []string{"/home/me/project"}}, in, out)
//
// It owns the wire, not the features: grove reads and writes the lines itself
// rather than through the SDK's IOTransport (wire.go says why). The reader
// answers lines that are not valid requests (lineguard.go), checks each
// request's params (params.go), takes batches apart (batch.go), gives each
// request a synthetic id (ids.go) and handles cancellation (cancel.go); the
// writer (writer.go) restores the client's ids, swaps in the large texts a
// [carrier] took around the SDK's encoder (carry.go), and bounds error
// answers; drainTransport (drain.go) answers what was asked before the end of
// input ends the session.
package stdio

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/grove-mcp/grove/server"
)

// Run builds a server from cfg and serves one client over in and out (main
// hands it the process's stdin and stdout) until the client goes away (end of
// input) or ctx is done.
func Run(ctx context.Context, cfg server.Config, in io.Reader, out io.Writer) error {
	if in == nil || out == nil {
		return errors.New("stdio.Run needs an input and an output")
	}
	s, err := server.New(cfg)
	if err != nil {
		return err
	}
	defer s.Close()
	if len(cfg.Roots) == 0 {
		s.Logger().Warn("no --root given: only roots the client shares will be reachable")
	}
	widenPipe(out)
	// stdin only: a write to a full pipe that parks in the poller waits for
	// the poller to notice the client has read, where a blocked write wakes
	// at once; a 65 MB answer (grep return on a 1 GB tree) took 654 ms
	// instead of 589 with stdout polled too.
	if f, restore, ok := polled(in); ok {
		defer restore()
		in = f
	}
	c := &carrier{}
	s.MCP().AddReceivingMiddleware(c.results)
	err = serve(ctx, s, c, in, out)
	if err != nil && ctx.Err() != nil {
		return ctx.Err()
	}
	if err != nil {
		return fmt.Errorf("serving stdio: %w", err)
	}
	return nil
}

// serve runs s's session over in and out; c's middleware must be installed
// on s.
func serve(ctx context.Context, s *server.Server, c *carrier, in io.Reader, out io.Writer) error {
	return s.MCP().Run(ctx, drainTransport{guardedStdio(in, out, c, s.Logger().With("component", "stdio"))})
}
