package server

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"io"
	"sync"
	"sync/atomic"
	"time"
)

// The SDK encodes a tool result and then scans the JSON three more times
// (encoding/json compacts the output of every MarshalJSON on its way up),
// about 14 ms per MiB and pass on this project's machines: a 1 MiB read_file
// cost 45 ms of CPU, of which the file was 1. A carrier takes such texts
// around the encoder: the handler puts a short stand-in where the text goes,
// and the stdio writer swaps the stand-in's JSON for the text's, encoded
// once.
//
// A stand-in is "\x00grove-carry:" and 32 random hex digits and "\x00"; in
// JSON it reads "\u0000grove-carry:…\u0000". Nothing else the server writes
// can hold it: it is random, lives only until its answer is written, and a
// file's text holding those characters is encoded with its backslashes
// escaped.

const (
	standInPrefix = "\x00grove-carry:"
	standInHex    = 32
	// carryMin is the shortest text worth carrying: below it the SDK's passes
	// cost less than a map entry and a scan.
	carryMin = 32 << 10
	// heldFor bounds how long a text waits for its answer. An answer that is
	// never written (its handler failed after Carry) must not keep the text.
	heldFor = 2 * time.Minute
)

// quotedPrefix is how a stand-in begins in the encoded answer.
var quotedPrefix = []byte(`"\u0000grove-carry:`)

// carrier holds texts until the writer puts them in their answers.
type carrier struct {
	armed atomic.Bool  // a writer swaps stand-ins; until then Carry keeps nothing
	count atomic.Int64 // texts held; the writer scans only when there are some

	mu   sync.Mutex
	held map[string]heldText // by the stand-in's hex digits
}

type heldText struct {
	json []byte // the text as a JSON string, quotes included
	at   time.Time
}

// Carry returns the stand-in to put in place of text, or text itself when it
// is short or no writer is armed to swap it back.
func (c *carrier) Carry(text string) string {
	if c == nil || len(text) < carryMin || !c.armed.Load() {
		return text
	}
	var id [standInHex / 2]byte
	if _, err := rand.Read(id[:]); err != nil {
		return text
	}
	key := hex.EncodeToString(id[:])
	encoded := appendJSONString(make([]byte, 0, len(text)+len(text)/16+2), text)
	now := time.Now()
	c.mu.Lock()
	if c.held == nil {
		c.held = make(map[string]heldText)
	}
	for k, h := range c.held {
		if now.Sub(h.at) > heldFor {
			delete(c.held, k)
			c.count.Add(-1)
		}
	}
	c.held[key] = heldText{json: encoded, at: now}
	c.count.Add(1)
	c.mu.Unlock()
	return standInPrefix + key + "\x00"
}

// take removes and returns the text held for key.
func (c *carrier) take(key string) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	h, ok := c.held[key]
	if ok {
		delete(c.held, key)
		c.count.Add(-1)
	}
	return h.json, ok
}

// write writes the encoded message p to w with every held stand-in replaced
// by its text. A stand-in it does not hold is written as it is.
func (c *carrier) write(w io.Writer, p []byte) error {
	if c.count.Load() == 0 {
		_, err := w.Write(p)
		return err
	}
	const tail = `\u0000"`
	for {
		i := bytes.Index(p, quotedPrefix)
		end := i + len(quotedPrefix) + standInHex + len(tail)
		if i < 0 || end > len(p) || string(p[end-len(tail):end]) != tail {
			_, err := w.Write(p)
			return err
		}
		text, ok := c.take(string(p[i+len(quotedPrefix) : end-len(tail)]))
		if !ok {
			text = p[i:end]
		}
		if _, err := w.Write(p[:i]); err != nil {
			return err
		}
		if _, err := w.Write(text); err != nil {
			return err
		}
		p = p[end:]
	}
}
