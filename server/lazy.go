package server

import (
	"context"
	"log/slog"
	"sync"

	"github.com/grove-mcp/grove/internal/panics"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// lazyTools registers the tools in the background, so that start-up does not
// wait for it: inferring, resolving and checking the JSON schemas of ~35 tools
// was half of the CPU time from spawn to the initialize answer, which needs
// none of them. tools/list and tools/call wait until it is done.
//
// Tools added once a session exists make the SDK announce
// notifications/tools/list_changed (debounced, 10 ms after the last one, or
// later on a loaded machine). grove registers its tools once and never
// changes them, so every such announcement is noise: quiet drops them. A
// feature that adds or removes tools at run time must change quiet first.
type lazyTools struct {
	done chan struct{} // closed when the registration has ended
	err  error         // a panic while registering; set before done closes
	wg   sync.WaitGroup
}

// start runs register on its own goroutine. A panic there (a tool whose
// types have no schema: a programmer's error) is logged, and every
// tools/list and tools/call answers it as an internal error.
func (l *lazyTools) start(register func(), log *slog.Logger) {
	l.done = make(chan struct{})
	l.wg.Go(func() {
		defer close(l.done)
		if l.err = registerCatching(register); l.err != nil {
			log.Error("registering the tools failed", "err", l.err)
		}
	})
}

func registerCatching(register func()) (err error) {
	defer panics.Catch(&err)
	register()
	return nil
}

// wait holds tools/list and tools/call until the tools are registered.
func (l *lazyTools) wait(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method == "tools/list" || method == "tools/call" {
			select {
			case <-l.done:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			if l.err != nil {
				return nil, l.err
			}
		}
		return next(ctx, method, req)
	}
}

// quiet drops notifications/tools/list_changed: see lazyTools.
func (l *lazyTools) quiet(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method == "notifications/tools/list_changed" {
			return nil, nil
		}
		return next(ctx, method, req)
	}
}

// close waits for the registration to end.
func (l *lazyTools) close() error {
	l.wg.Wait()
	return nil
}

// afterFirst runs start once: after the first initialize request has been
// answered, or before the first other message (a modern client sends no
// initialize). Watching the roots and warming their repositories is I/O and
// CPU that the handshake does not need, and on a small machine it would
// compete with the answer; every request that does need it comes later.
type afterFirst struct {
	once  sync.Once
	start func()
}

func (a *afterFirst) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method == "initialize" {
			defer a.once.Do(a.start)
		} else {
			a.once.Do(a.start)
		}
		return next(ctx, method, req)
	}
}
