package stdio

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/grove-mcp/grove/server"
)

// wirePeer is the synthetic client: it writes raw JSON lines to the server
// and reads the server's lines back.
type wirePeer struct {
	t        *testing.T
	root     string
	w        io.WriteCloser    // client -> server
	lines    chan []byte       // server -> client, closed at end of output
	done     chan error        // what Run returned
	vars     map[string]string // ${NAME} -> value, for client messages
	replies  []json.RawMessage // the client section's answers to the server's requests, in order
	got      bytes.Buffer      // server messages, normalised and indented
	closed   bool              // the server ended the connection early
	streams  map[string]bool   // ids of open subscriptions/listen requests
	answered map[string]bool   // ids whose response has come
}

// wireHeader is enough of a JSON-RPC message to route it.
type wireHeader struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
}

// startWirePeer runs the server as main does, [Run] over a pair of pipes, so
// the golden files see grove's own stdio stack (line guard, drain).
func startWirePeer(t *testing.T, cfg server.Config, root string) *wirePeer {
	t.Helper()
	toServer, clientOut := io.Pipe()
	clientIn, fromServer := io.Pipe()
	p := &wirePeer{t: t, root: root, w: clientOut, lines: make(chan []byte, 64), done: make(chan error, 1),
		streams: map[string]bool{}, answered: map[string]bool{}, vars: map[string]string{"ROOT": root, "ROOTPATH": strings.TrimPrefix(root, "/")}}
	go func() {
		err := Run(t.Context(), cfg, toServer, fromServer)
		toServer.Close() // the client's next write fails instead of blocking
		fromServer.Close()
		p.done <- err
	}()
	go func() {
		defer close(p.lines)
		sc := bufio.NewScanner(clientIn)
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			p.lines <- bytes.Clone(sc.Bytes())
		}
	}()
	return p
}

func header(t *testing.T, msg []byte) wireHeader {
	t.Helper()
	var h wireHeader
	if err := json.Unmarshal(msg, &h); err != nil {
		t.Fatalf("message %s: %v", msg, err)
	}
	return h
}

// send writes one client request or notification; a request waits for its
// response.
func (p *wirePeer) send(raw json.RawMessage) {
	p.t.Helper()
	var line string
	if json.Unmarshal(raw, &line) == nil {
		p.write([]byte(line)) // a JSON string is sent verbatim: malformed input
		return
	}
	msg := p.expand(raw)
	p.write(msg)
	h := header(p.t, msg)
	switch {
	case p.closed:
	case h.Method == "subscriptions/listen":
		p.streams[string(h.ID)] = true
		p.awaitAck(h.ID)
	case h.ID != nil:
		p.awaitResponse(h.ID)
	case h.Method == "notifications/cancelled":
		var c struct {
			Params struct {
				RequestID json.RawMessage `json:"requestId"`
			} `json:"params"`
		}
		if json.Unmarshal(msg, &c) == nil {
			delete(p.streams, string(c.Params.RequestID)) // ended, and not answered: the request was cancelled
		}
	}
}

// awaitAck records server messages until a subscriptions/listen stream is
// acknowledged or refused.
func (p *wirePeer) awaitAck(id json.RawMessage) {
	p.t.Helper()
	for !p.closed {
		line, ok := p.next()
		if !ok {
			p.markClosed()
			return
		}
		h := p.record(line)
		if h.Method == "notifications/subscriptions/acknowledged" || h.Method == "" && bytes.Equal(h.ID, id) {
			return
		}
	}
}

// expand substitutes ${NAME} variables and compacts the message to one line.
func (p *wirePeer) expand(raw json.RawMessage) []byte {
	s := string(raw)
	for name, v := range p.vars {
		s = strings.ReplaceAll(s, "${"+name+"}", v)
	}
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(s)); err != nil {
		p.t.Fatalf("client message %s: %v", s, err)
	}
	return b.Bytes()
}

func (p *wirePeer) write(line []byte) {
	p.t.Helper()
	if p.closed {
		return
	}
	_, err := p.w.Write(append(line, '\n'))
	if errors.Is(err, io.ErrClosedPipe) {
		p.markClosed()
	} else if err != nil {
		p.t.Fatalf("writing to the server: %v", err)
	}
}

// markClosed records, once, that the server ended the connection while the
// client still had something to say; nothing more is sent.
func (p *wirePeer) markClosed() {
	if !p.closed {
		p.closed = true
		p.got.WriteString(closedMarker + "\n")
	}
}

// awaitResponse records server messages until the response to id, answering
// the server's requests on the way.
func (p *wirePeer) awaitResponse(id json.RawMessage) {
	p.t.Helper()
	for {
		line, ok := p.next()
		if !ok {
			p.markClosed()
			return
		}
		h := p.record(line)
		switch {
		case h.Method != "" && h.ID != nil:
			p.reply(h.ID)
		case h.Method == "" && p.answered[string(h.ID)]:
			p.t.Fatalf("a second response to id %s", h.ID)
		case h.Method == "" && bytes.Equal(h.ID, id):
			delete(p.streams, string(id))
			p.answered[string(id)] = true
			return
		case h.Method == "" && p.streams[string(h.ID)]:
			p.t.Fatalf("stream %s ended while waiting for id %s", h.ID, id)
		}
		// Other responses answer lines sent verbatim (malformed input).
	}
}

func (p *wirePeer) next() ([]byte, bool) {
	timer := time.NewTimer(wireTimeout)
	defer timer.Stop()
	select {
	case line, ok := <-p.lines:
		return line, ok
	case <-timer.C:
		p.t.Fatalf("no server message in %v", wireTimeout)
		return nil, false
	}
}

// record normalises and keeps one server message, capturing its volatile values.
func (p *wirePeer) record(line []byte) wireHeader {
	p.t.Helper()
	h := header(p.t, line)
	s := strings.ReplaceAll(string(line), p.root, "${ROOT}")
	s = strings.ReplaceAll(s, strings.TrimPrefix(p.root, "/"), "${ROOTPATH}")
	for _, v := range volatile {
		if m := v.re.FindStringSubmatch(s); m != nil {
			p.vars[v.name] = strings.ReplaceAll(m[1], "${ROOT}", p.root)
		}
		s = v.re.ReplaceAllStringFunc(s, func(field string) string {
			key, _, _ := strings.Cut(field, ":")
			return key + `:"${` + v.name + `}"`
		})
	}
	if err := json.Indent(&p.got, []byte(s), "", "\t"); err != nil {
		p.t.Fatalf("indenting %s: %v", s, err)
	}
	p.got.WriteByte('\n')
	return h
}

// reply answers a server request with the next response of the client section.
func (p *wirePeer) reply(id json.RawMessage) {
	p.t.Helper()
	if len(p.replies) == 0 {
		p.t.Fatalf("the server sent request %s and the client section has no response left", id)
	}
	var msg map[string]json.RawMessage
	if err := json.Unmarshal(p.expand(p.replies[0]), &msg); err != nil {
		p.t.Fatal(err)
	}
	p.replies = p.replies[1:]
	msg["id"] = id
	line, err := json.Marshal(msg)
	if err != nil {
		p.t.Fatal(err)
	}
	p.write(line)
}

// finish ends the client's input and records what the server still writes
// before its output ends; a response then is an error.
func (p *wirePeer) finish() {
	p.t.Helper()
	if err := p.w.Close(); err != nil {
		p.t.Fatal(err)
	}
	for {
		line, ok := p.next()
		if !ok {
			break
		}
		if h := p.record(line); h.Method == "" {
			p.t.Errorf("response %s after the last request", h.ID)
		}
	}
	select {
	case err := <-p.done:
		if err != nil {
			p.t.Errorf("Run: %v", err)
		}
	case <-time.After(wireTimeout):
		p.t.Errorf("Run did not return in %v after the end of its input", wireTimeout)
	}
	if len(p.replies) > 0 {
		p.t.Errorf("%d client responses were never asked for", len(p.replies))
	}
}
