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

const (
	// splitMin is the shortest array worth a helper: below it the
	// goroutine and the copy cost about what they save.
	splitMin = 4096
	// splitStringMin is the shortest string worth a helper.
	splitStringMin = 256 << 10
)

// helpers counts the helper goroutines running: at most one fewer than
// the cores Go runs on.
var helpers atomic.Int32

// split appends the elements of v, its second half encoded by a helper
// when one is free.
func split(dst []byte, v reflect.Value, elem *encoder, depth int) ([]byte, error) {
	return AppendHalves(dst, v.Len(), func(dst []byte, from, to int) ([]byte, error) {
		return elements(dst, v, elem, depth, from, to)
	})
}

// AppendHalves appends the n elements of an array's body, comma-separated,
// with elems(dst, from, to) appending elements from to to-1 and the commas
// between them. The second half is appended by a helper goroutine, into a
// buffer of its own, when n is worth it and a helper is free.
func AppendHalves(dst []byte, n int, elems func(dst []byte, from, to int) ([]byte, error)) ([]byte, error) {
	if n < splitMin || !takeHelper() {
		return elems(dst, 0, n)
	}
	half := n / 2
	done := onHelper(func() ([]byte, error) { return elems(Buffer(), half, n) })
	dst, err := elems(dst, 0, half)
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

// AppendLongString is [AppendString], with the second half of a long
// string escaped by a helper goroutine when one is free (a 1 MiB file, the
// text of a 25,000-line grep).
func AppendLongString(dst []byte, s string) []byte {
	cut := len(s) / 2
	for cut < len(s) && s[cut] >= 0x80 {
		cut++ // an ASCII byte is never inside a UTF-8 sequence: cut before one
	}
	if len(s) < splitStringMin || cut == len(s) || !takeHelper() {
		return AppendString(dst, s)
	}
	done := onHelper(func() ([]byte, error) { return appendEscaped(Buffer(), s[cut:]), nil })
	dst = appendEscaped(append(dst, '"'), s[:cut])
	second := <-done
	defer Release(second.b)
	if second.err != nil { // a bug of ours: the caller's goroutine does the work
		return append(appendEscaped(dst, s[cut:]), '"')
	}
	return append(append(dst, second.b...), '"')
}

// result is what a helper goroutine encoded.
type result struct {
	b   []byte
	err error
}

// onHelper runs encode on the helper goroutine takeHelper reserved, and frees
// it after; a panic there becomes the result's error.
func onHelper(encode func() ([]byte, error)) <-chan result {
	done := make(chan result, 1)
	go func() {
		var r result
		defer func() { helpers.Add(-1); done <- r }()
		defer panics.Catch(&r.err)
		r.b, r.err = encode()
	}()
	return done
}

// takeHelper reserves a helper goroutine, if one is free.
func takeHelper() bool {
	if helpers.Add(1) > int32(runtime.GOMAXPROCS(0)-1) {
		helpers.Add(-1)
		return false
	}
	return true
}
