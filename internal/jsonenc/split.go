package jsonenc

import (
	"reflect"
	"runtime"
	"sync/atomic"

	"github.com/grove-mcp/grove/internal/panics"
)

// A large answer is encoded when its handler is done, so the other cores
// are idle while the client waits for it: a long array (grep's 25,000
// matches) has its second half encoded on a helper goroutine into a buffer
// of its own, copied after the first. Helpers are bounded by the cores, and
// an array that finds none free is encoded on its caller's goroutine alone.

// splitMin is the shortest array worth a helper: below it the goroutine and
// the copy cost about what they save.
const splitMin = 4096

// helpers counts the helper goroutines running: at most one fewer than
// the cores Go runs on.
var helpers atomic.Int32

// split appends the elements of v, its second half encoded by a helper
// when one is free.
func split(dst []byte, v reflect.Value, elem *encoder, depth int) ([]byte, error) {
	n := v.Len()
	if helpers.Add(1) > int32(runtime.GOMAXPROCS(0)-1) {
		helpers.Add(-1)
		return elements(dst, v, elem, depth, 0, n)
	}
	half := n / 2
	type result struct {
		b   []byte
		err error
	}
	done := make(chan result, 1)
	go func() {
		var r result
		defer func() { helpers.Add(-1); done <- r }()
		defer panics.Catch(&r.err)
		r.b, r.err = elements(Buffer(), v, elem, depth, half, n)
	}()
	dst, err := elements(dst, v, elem, depth, 0, half)
	second := <-done
	defer Release(second.b)
	if err != nil {
		return dst, err
	}
	if second.err != nil {
		return dst, second.err
	}
	return append(append(dst, ','), second.b...), nil
}
