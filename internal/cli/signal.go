package cli

import (
	"context"
	"os"
	"os/signal"
)

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
