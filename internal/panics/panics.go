// Package panics turns a panic on one of grove's goroutines into an error or a
// log line for that piece of work, so that one bad input (a crafted index, a
// corrupt pack, a bug of ours) ends one answer and never the process.
//
// A goroutine that has a caller waiting for its result reports the panic as an
// error:
//
//	g.Go(func() (err error) {
//		defer panics.Catch(&err)
//		return work()
//	})
//
// One that nobody waits for logs it:
//
//	go func() {
//		defer panics.Log(logger, "watching roots")
//		loop()
//	}()
//
// Both must be called directly by defer: recover only works there.
package panics

import (
	"fmt"
	"log/slog"
	"runtime/debug"
)

// Error is a recovered panic: its value and the stack where it happened.
type Error struct {
	Value any
	Stack []byte
}

func (e *Error) Error() string { return fmt.Sprintf("internal error (panic: %v)", e.Value) }

// Catch, deferred, stores a panic of the calling goroutine in *err as an
// [*Error] and ends the panic. It leaves *err alone when there was none.
func Catch(err *error) {
	if p := recover(); p != nil {
		*err = &Error{Value: p, Stack: debug.Stack()}
	}
}

// Log, deferred, logs a panic of the calling goroutine with its stack at
// error level, naming the work that panicked, and ends the panic.
func Log(logger *slog.Logger, work string) {
	if p := recover(); p != nil {
		logger.Error("goroutine panicked", "work", work, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
	}
}
