//go:build unix

package cli

import (
	"context"
	"os"
	"os/signal"
	"syscall"
	"testing"
	"time"
)

// A signal cancels notifyContext's context once its watcher is in place;
// stop then returns.
func TestNotifyContextSignal(t *testing.T) {
	// The test's own watcher keeps SIGUSR1 from ending the process while
	// notifyContext's is not in place yet.
	guard := make(chan os.Signal, 16)
	signal.Notify(guard, syscall.SIGUSR1)
	defer signal.Stop(guard)

	ctx, stop := notifyContext(context.Background(), syscall.SIGUSR1)
	defer stop()
	deadline := time.After(30 * time.Second)
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for ctx.Err() == nil {
		if err := syscall.Kill(os.Getpid(), syscall.SIGUSR1); err != nil {
			t.Fatal(err)
		}
		select {
		case <-ctx.Done():
		case <-tick.C:
		case <-deadline:
			t.Fatal("SIGUSR1 did not cancel the context")
		}
	}
	if ctx.Err() != context.Canceled {
		t.Errorf("ctx.Err() = %v, want context.Canceled", ctx.Err())
	}
}

// Without a signal, stop cancels the context and returns once the watcher
// has stopped.
func TestNotifyContextStop(t *testing.T) {
	ctx, stop := notifyContext(context.Background(), syscall.SIGUSR2)
	if ctx.Err() != nil {
		t.Fatalf("context done before any signal: %v", ctx.Err())
	}
	returned := make(chan struct{})
	go func() { stop(); close(returned) }()
	select {
	case <-returned:
	case <-time.After(30 * time.Second):
		t.Fatal("stop did not return")
	}
	if ctx.Err() != context.Canceled {
		t.Errorf("after stop: ctx.Err() = %v, want context.Canceled", ctx.Err())
	}
}
