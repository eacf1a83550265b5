package jsonenc

import "sync"

// A Handoff holds JSON its maker encoded along with other work, for the
// first that takes it: grep renders each matching line once, escaped, into
// both its text (as a JSON string) and its structured content, where the
// answer used to escape every line twice, once per form. The value the
// JSON stands for stays the truth: whoever does not take it encodes that
// value as usual.
type Handoff struct {
	mu sync.Mutex
	b  []byte
}

// NewHandoff returns a Handoff of b.
func NewHandoff(b []byte) *Handoff { return &Handoff{b: b} }

// Take returns the JSON, which is the taker's from then on, or nil when h is
// nil or taken already.
func (h *Handoff) Take() []byte {
	if h == nil {
		return nil
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	b := h.b
	h.b = nil
	return b
}

// A Premarshaled value may hold its own JSON, made beforehand (a Handoff):
// [Marshal] returns that instead of encoding the value. It must be exactly
// the bytes Marshal would write, as an [Appender]'s are.
type Premarshaled interface {
	TakeJSON() []byte // nil when there is none (any more)
}

// AppendEscaped appends s as the inside of a JSON string, as [AppendString]
// does without the quotes. Pieces of a text escaped one after the other are
// the text escaped whole when every cut is next to an ASCII byte (which is
// never part of a longer UTF-8 sequence).
func AppendEscaped(dst []byte, s string) []byte { return appendEscaped(dst, s) }
