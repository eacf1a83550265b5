package panics_test

import (
	"bytes"
	"errors"
	"log/slog"
	"strings"
	"testing"

	"github.com/grove-mcp/grove/internal/panics"
)

func TestCatch(t *testing.T) {
	work := func(boom bool) (err error) {
		defer panics.Catch(&err)
		if boom {
			var m map[string]int
			m["x"] = 1 // nil map write
		}
		return errors.New("plain")
	}
	err := work(true)
	var pe *panics.Error
	if !errors.As(err, &pe) {
		t.Fatalf("work(true) = %v, want a *panics.Error", err)
	}
	if !strings.Contains(pe.Error(), "assignment to entry in nil map") || len(pe.Stack) == 0 {
		t.Errorf("Error() = %q, stack %d bytes; want the panic value and a stack", pe.Error(), len(pe.Stack))
	}
	if err := work(false); err == nil || err.Error() != "plain" {
		t.Errorf("work(false) = %v, want the function's own error", err)
	}
}

func TestLog(t *testing.T) {
	var buf bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&buf, nil))
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer panics.Log(logger, "test work")
		panic("kaboom")
	}()
	<-done
	for _, want := range []string{"goroutine panicked", "test work", "kaboom", "stack="} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("log %q lacks %q", buf.String(), want)
		}
	}
}
