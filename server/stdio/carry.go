package stdio

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/grove-mcp/grove/internal/jsonenc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The SDK encodes a result and then scans the JSON three more times
// (encoding/json compacts the output of every MarshalJSON on its way up),
// about 14 ms per MiB and pass on this project's machines: a 1 MiB read_file
// cost 34 ms of CPU, of which reading the file was 1. A carrier takes large
// texts and structured contents around the encoder: its middleware puts a
// short stand-in in the result, and the stdio writer swaps the stand-in's
// JSON for the value's, encoded once.
//
// A stand-in is "\x00grove-carry:" and 32 random hex digits and "\x00"; in
// JSON it reads "\u0000grove-carry:…\u0000". Nothing else the server writes
// can hold it: it is random, lives only until its answer is written, and a
// file's text holding those characters is encoded with its backslashes
// escaped.

const (
	standInPrefix = "\x00grove-carry:"
	standInHex    = 32
	// carryMin is the shortest value worth carrying: below it the SDK's
	// passes cost less than a map entry and a scan.
	carryMin = 4 << 10
	// heldFor bounds how long a text waits for its answer. An answer that is
	// never written (its handler failed after Carry) must not keep the text.
	heldFor = 2 * time.Minute
)

// quotedPrefix is how a stand-in begins in the encoded answer.
var quotedPrefix = []byte(`"\u0000grove-carry:`)

// carrier holds values until the writer puts them in their answers.
type carrier struct {
	armed atomic.Bool  // a writer swaps stand-ins; until then nothing is carried
	count atomic.Int64 // values held; the writer scans only when there are some

	mu   sync.Mutex
	held map[string]heldJSON // by the stand-in's hex digits
}

type heldJSON struct {
	json   []byte // the value's JSON
	at     time.Time
	pooled bool // json came from jsonenc's pool and goes back once written
}

// results is middleware that carries the large texts and structured contents
// of tool results, and the large texts of resource reads (prompts embed at
// most 200 KiB and go as they are). It changes copies, never what a handler
// returned.
func (c *carrier) results(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if err != nil || !c.armed.Load() {
			return res, err
		}
		switch r := res.(type) {
		case *mcp.CallToolResult:
			if r == nil {
				break
			}
			cp := *r
			cp.Content = c.contents(r.Content)
			// scope.AddTool marshals every tool's output into a buffer
			// of jsonenc's pool, which goes back once written.
			switch raw := r.StructuredContent.(type) {
			case jsonenc.Pooled:
				if len(raw) >= carryMin {
					cp.StructuredContent = c.hold(raw, true)
				}
			case json.RawMessage:
				if len(raw) >= carryMin {
					cp.StructuredContent = c.hold(raw, false)
				}
			}
			return &cp, nil
		case *mcp.ReadResourceResult:
			if r == nil {
				break
			}
			cp, copied := *r, false
			for i, rc := range r.Contents {
				if rc == nil || len(rc.Text) < carryMin {
					continue
				}
				if !copied {
					cp.Contents, copied = append([]*mcp.ResourceContents(nil), r.Contents...), true
				}
				t := *rc
				t.Text = c.text(rc.Text)
				cp.Contents[i] = &t
			}
			return &cp, nil
		}
		return res, nil
	}
}

// A quotedText is a text content whose maker encoded its text as a JSON
// string along with other output (fsres's grep answers): the text is
// carried as that, not escaped again. QuotedText's JSON is the caller's to
// release, and nil once taken.
type quotedText interface {
	QuotedText() (*mcp.TextContent, []byte)
}

// contents returns cs with its large text blocks carried.
func (c *carrier) contents(cs []mcp.Content) []mcp.Content {
	out, copied := cs, false
	for i, x := range cs {
		var t *mcp.TextContent
		var quoted []byte
		switch x := x.(type) {
		case *mcp.TextContent:
			t = x
		case quotedText:
			t, quoted = x.QuotedText()
		}
		if t == nil || len(t.Text) < carryMin {
			jsonenc.Release(quoted)
			continue
		}
		if !copied {
			out, copied = append([]mcp.Content(nil), cs...), true
		}
		cp := *t
		if quoted != nil {
			cp.Text = c.hold(quoted, true)
		} else {
			cp.Text = c.text(t.Text)
		}
		out[i] = &cp
	}
	return out
}

// text returns the stand-in for s, encoded into a buffer of jsonenc's pool
// (a 1 MiB read would otherwise allocate, and clear, a new one per call),
// half of it on another core when s is long.
func (c *carrier) text(s string) string {
	return c.hold(jsonenc.AppendLongString(jsonenc.Buffer(), s), true)
}

// hold holds the JSON value v, from jsonenc's pool if pooled, and returns
// the string whose JSON the writer will swap for v.
func (c *carrier) hold(v []byte, pooled bool) string {
	var id [standInHex / 2]byte
	_, _ = rand.Read(id[:]) // never fails (crypto/rand's documented promise)
	key := hex.EncodeToString(id[:])
	now := time.Now()
	c.mu.Lock()
	if c.held == nil {
		c.held = make(map[string]heldJSON)
	}
	for k, h := range c.held {
		if now.Sub(h.at) > heldFor {
			delete(c.held, k)
			c.count.Add(-1)
		}
	}
	c.held[key] = heldJSON{json: v, at: now, pooled: pooled}
	c.count.Add(1)
	c.mu.Unlock()
	return standInPrefix + key + "\x00"
}

// take removes and returns the value held for key.
func (c *carrier) take(key string) (heldJSON, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	h, ok := c.held[key]
	if ok {
		delete(c.held, key)
		c.count.Add(-1)
	}
	return h, ok
}

// done recycles h's buffer once it is written.
func (h heldJSON) done() {
	if h.pooled {
		jsonenc.Release(h.json)
	}
}

// write writes the encoded message p to w with every held stand-in replaced
// by its value. A stand-in it does not hold is written as it is.
func (c *carrier) write(w io.Writer, p []byte) error {
	if c.count.Load() == 0 {
		_, err := w.Write(p)
		return err
	}
	for {
		i, end, key := nextStandIn(p)
		if i < 0 {
			_, err := w.Write(p)
			return err
		}
		h, ok := c.take(key)
		if !ok {
			h = heldJSON{json: p[i:end]}
		}
		if _, err := w.Write(p[:i]); err != nil {
			return err
		}
		_, err := w.Write(h.json)
		h.done()
		if err != nil {
			return err
		}
		p = p[end:]
	}
}

// nextStandIn finds the first stand-in in the encoded message p: it spans
// p[i:end] and key is its hex digits. i is -1 when p holds none.
func nextStandIn(p []byte) (i, end int, key string) {
	const tail = `\u0000"`
	i = bytes.Index(p, quotedPrefix)
	end = i + len(quotedPrefix) + standInHex + len(tail)
	if i < 0 || end > len(p) || string(p[end-len(tail):end]) != tail {
		return -1, 0, ""
	}
	return i, end, string(p[i+len(quotedPrefix) : end-len(tail)])
}

// heldSize returns the bytes of the values held for the stand-ins in p: what
// writing p will add.
func (c *carrier) heldSize(p []byte) int {
	n := 0
	for c.count.Load() > 0 {
		i, end, key := nextStandIn(p)
		if i < 0 {
			break
		}
		c.mu.Lock()
		n += len(c.held[key].json)
		c.mu.Unlock()
		p = p[end:]
	}
	return n
}

// release drops the values held for the stand-ins in p, an answer that will
// not be written.
func (c *carrier) release(p []byte) {
	for c.count.Load() > 0 {
		i, end, key := nextStandIn(p)
		if i < 0 {
			return
		}
		if h, ok := c.take(key); ok {
			h.done()
		}
		p = p[end:]
	}
}
