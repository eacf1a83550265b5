// Package jsonenc encodes tool outputs to JSON about twice as fast as
// encoding/json, with the same bytes: what an [encoding/json.Encoder] with
// SetEscapeHTML(false) writes, without its newline.
//
//	b, err := jsonenc.Marshal(out) // in a buffer from a pool
//	…write b…
//	jsonenc.Release(b)
//
// A tool's answer can hold 25,000 matching lines (grep's `return` on
// git/git: 1.9 MB of JSON), and encoding/json spends most of its time there
// on one byte at a time of string escaping and on growing its buffer. This
// package compiles an encoder per type once (struct fields, slices, maps,
// pointers, interfaces, strings, integers and booleans), and escapes strings
// eight bytes a step ([AppendString]); a long array or string has its
// second half encoded on another core (split.go). Whatever it does not
// compile (an embedded pointer, a name two fields share, a field with the
// ",string" option, a method MarshalJSON or MarshalText with a pointer
// receiver, a channel) it hands to encoding/json, whole: the bytes are the
// same either way, only slower. Values with a MarshalJSON or MarshalText of
// their own (value receivers), floats and json.Number go through
// encoding/json one value at a time.
package jsonenc

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"sync"
	"sync/atomic"
)

// Marshal returns the JSON encoding of v in a buffer taken from a pool.
// Whoever writes it may hand it back with [Release]; a buffer never
// released is garbage like any other. Without a free buffer, Marshal makes
// one as large as the last answer of v's type: growing a buffer to 2 MB by
// doubling cost more than the encoding. A [Premarshaled] value's own JSON,
// when it still holds it, is returned as it is.
func Marshal(v any) ([]byte, error) {
	if p, ok := v.(Premarshaled); ok {
		if b := p.TakeJSON(); b != nil {
			return b, nil
		}
	}
	buf := Buffer()
	var hint *atomic.Int64
	if v != nil {
		hint = &encoderOf(reflect.TypeOf(v)).hint
		if n := int(hint.Load()); cap(buf) < n {
			Release(buf)
			buf = make([]byte, 0, n+n/8)
		}
	}
	b, err := Append(buf, v)
	if err != nil {
		Release(buf)
		return nil, err
	}
	if hint != nil {
		hint.Store(int64(len(b)))
	}
	return b, nil
}

// An Appender appends its own JSON: exactly the bytes encoding/json writes
// for it (with SetEscapeHTML(false), without a newline), which the encoder
// trusts unchecked. It is for a type the compiled encoders are too slow for
// (grep's 25,000 matches), and its tests compare its bytes with
// encoding/json's. encoding/json itself knows nothing of it.
type Appender interface {
	AppendJSON(dst []byte) ([]byte, error)
}

// Pooled is JSON in a buffer from the pool (as [Marshal] returns it). It
// marshals as itself, like a json.RawMessage; a writer that puts its bytes
// on the wire itself may [Release] it afterwards, once nothing else reads it.
type Pooled []byte

// MarshalJSON returns p.
func (p Pooled) MarshalJSON() ([]byte, error) {
	if p == nil {
		return []byte("null"), nil
	}
	return p, nil
}

// buffers holds buffers for Marshal and [Buffer].
var buffers sync.Pool // of *[]byte

// maxPooled bounds the buffers kept. A pooled buffer stays until two
// collections have passed without its reuse (sync.Pool's rule; an idle
// process collects every 2 minutes), so a 64 MiB one stays about 4 minutes
// at most after the answer that needed it. At 8 MiB, grep `return` on a
// 1 GB tree (a 70 MB answer: its text's JSON string 32 MB, its structured
// content 35 MB) took both on fresh pages at every call: 36,000–52,000
// page faults a call where, pooled, 11,000–30,000, and 650 ms of CPU
// against 710–920 (a call at a time, /proc/PID/stat).
const maxPooled = 64 << 20

// Buffer returns an empty buffer from the pool, or nil; [Release] hands it
// back.
func Buffer() []byte {
	if bp, ok := buffers.Get().(*[]byte); ok {
		return (*bp)[:0]
	}
	return nil
}

// Release puts b, which its owner no longer uses, in the pool.
func Release(b []byte) {
	if cap(b) == 0 || cap(b) > maxPooled {
		return
	}
	b = b[:0]
	buffers.Put(&b)
}

// Append appends the JSON encoding of v to dst.
func Append(dst []byte, v any) ([]byte, error) {
	rv := reflect.ValueOf(v)
	if !rv.IsValid() {
		return append(dst, "null"...), nil
	}
	enc := encoderOf(rv.Type()).enc
	if enc == nil {
		return fallback(dst, v)
	}
	out, err := enc.fn(dst, rv, 0)
	if errors.Is(err, errTooDeep) { // a cycle, or very deep data: encoding/json says which
		return fallback(dst, v)
	}
	return out, err
}

// Fast reports whether values of t are encoded by this package's compiled
// encoders rather than handed whole to encoding/json.
func Fast(t reflect.Type) bool { return encoderOf(t).enc != nil }

// maxDepth bounds the pointers, slices, maps and interfaces one value may
// nest; past it Append lets encoding/json find the cycle (it reports one
// past 1,000 levels too).
const maxDepth = 1000

var errTooDeep = errors.New("jsonenc: value nested too deeply")

// topLevel is what is cached for a type values are encoded as.
type topLevel struct {
	enc  *encoder     // nil: encoding/json encodes the type
	hint atomic.Int64 // the size of the last answer Marshal gave
}

// encoders caches the encoders of the types given to Append.
var encoders sync.Map // reflect.Type → *topLevel

func encoderOf(t reflect.Type) *topLevel {
	if e, ok := encoders.Load(t); ok {
		return e.(*topLevel)
	}
	top := &topLevel{enc: (&compiler{seen: map[reflect.Type]*encoder{}}).compile(t)}
	e, _ := encoders.LoadOrStore(t, top)
	return e.(*topLevel)
}

// fallback appends encoding/json's encoding of v.
func fallback(dst []byte, v any) ([]byte, error) {
	buf := bytes.NewBuffer(dst)
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return dst, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// fallbackValue appends encoding/json's encoding of v, a value that is not
// addressable (so encoding/json does not look for pointer methods on it
// either) or whose type has no methods that need it.
func fallbackValue(dst []byte, v reflect.Value) ([]byte, error) {
	return fallback(dst, v.Interface())
}
