package hostile

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// ping checks that grove is alive: a ping is answered within pingTimeout,
// and nothing but notifications and grove's own requests comes before its
// answer (an earlier answer is a stray: one that was not due).
func (s *session) ping() {
	s.t.Helper()
	s.nextID++
	id := `"ping-` + strconv.Itoa(s.nextID) + `"`
	s.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"ping"}`)
	m := s.await(id, pingTimeout)
	if m.Error != nil || string(m.Result) != "{}" {
		s.t.Errorf("ping answered %.300s, want an empty result", m.Raw)
	}
}

// await reads until the answer to id. Every other answer on the way is
// reported as a stray. It fails the test if none comes within d.
func (s *session) await(id string, d time.Duration) *message {
	s.t.Helper()
	deadline := time.Now().Add(d)
	for {
		m := s.nextResponse(deadline, "answer to id "+id)
		if m.Batch == nil && string(m.ID) == id {
			return m
		}
		s.t.Errorf("stray answer while waiting for id %s: %.300s", id, m.Raw)
	}
}

// nextResponse reads until the next answer (or batch of answers), serving
// grove's requests and keeping its notifications on the way.
func (s *session) nextResponse(deadline time.Time, what string) *message {
	s.t.Helper()
	for {
		m, ok := s.next(deadline)
		if !ok {
			s.t.Fatalf("no %s within the bound (%s)", what, s.state())
		}
		if m.isResponse() {
			return m
		}
	}
}

// awaitNote reads until a notification with method for which match holds,
// serving requests; other answers are strays.
func (s *session) awaitNote(method string, match func(*message) bool, d time.Duration) *message {
	s.t.Helper()
	deadline := time.Now().Add(d)
	for {
		m, ok := s.next(deadline)
		if !ok {
			s.t.Fatalf("no %s notification within %v (%s)", method, d, s.state())
		}
		switch {
		case m.isResponse():
			s.t.Errorf("stray answer while waiting for %s: %.300s", method, m.Raw)
		case m.Method == method && m.ID == nil && (match == nil || match(m)):
			return m
		}
	}
}

// awaitServerRequest reads until grove sends a request with method.
func (s *session) awaitServerRequest(method string, d time.Duration) *message {
	s.t.Helper()
	deadline := time.Now().Add(d)
	for {
		m, ok := s.next(deadline)
		if !ok {
			s.t.Fatalf("grove sent no %s request within %v: %s", method, d, s.state())
		}
		switch {
		case m.isResponse():
			s.t.Errorf("stray answer while waiting for grove's %s: %.300s", method, m.Raw)
		case m.isServerRequest() && m.Method == method:
			return m
		}
	}
}

func (s *session) state() string {
	if s.eof {
		return "grove ended its output"
	}
	return "grove is silent"
}

// next returns the next message before deadline; false at the deadline or
// the end of output. Grove's requests are answered, and they and its
// notifications are recorded.
func (s *session) next(deadline time.Time) (*message, bool) {
	s.t.Helper()
	if s.eof {
		return nil, false
	}
	timer := time.NewTimer(time.Until(deadline))
	defer timer.Stop()
	for {
		select {
		case line, ok := <-s.lines:
			if !ok {
				s.eof = true
				return nil, false
			}
			m := s.parse(line)
			if m == nil {
				continue
			}
			switch {
			case m.isServerRequest():
				s.serverRequests = append(s.serverRequests, m)
				s.serve(m)
			case !m.isResponse():
				s.notes = append(s.notes, m)
			}
			return m, true
		case <-timer.C:
			return nil, false
		}
	}
}

// parse decodes one line of grove's output; a line that is not JSON fails
// the test.
func (s *session) parse(line []byte) *message {
	s.t.Helper()
	raw := bytes.TrimSpace(line)
	m, err := decodeMessage(raw)
	if err != nil {
		s.t.Errorf("grove wrote a line that is not a JSON-RPC message (%v): %.300q", err, raw)
		return nil
	}
	return m
}

func decodeMessage(raw []byte) (*message, error) {
	if len(raw) > 0 && raw[0] == '[' {
		var parts []json.RawMessage
		if err := json.Unmarshal(raw, &parts); err != nil {
			return nil, err
		}
		m := &message{Raw: raw, Batch: []*message{}}
		for _, p := range parts {
			e, err := decodeMessage(p)
			if err != nil {
				return nil, err
			}
			m.Batch = append(m.Batch, e)
		}
		return m, nil
	}
	m := &message{Raw: raw}
	if err := json.Unmarshal(raw, m); err != nil {
		return nil, err
	}
	return m, nil
}

// serve answers one of grove's requests as the client is set up to.
func (s *session) serve(m *message) {
	s.t.Helper()
	if m.Method == "roots/list" && s.ignoreRootsList {
		return
	}
	var body string
	if m.Method == "roots/list" && s.clientRoots != nil {
		type root struct {
			URI  string `json:"uri"`
			Name string `json:"name"`
		}
		rs := []root{}
		for _, u := range s.clientRoots {
			rs = append(rs, root{URI: u, Name: filepath.Base(u)})
		}
		b, err := json.Marshal(map[string]any{"roots": rs})
		if err != nil {
			s.t.Fatal(err)
		}
		body = `"result":` + string(b)
	} else {
		body = `"error":{"code":-32601,"message":"the hostile client answers nothing"}`
	}
	s.send(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,` + body + `}`)
}

// initialize runs the legacy handshake at version with the client
// capabilities caps (a JSON object) and returns the negotiated version.
func (s *session) initialize(version, caps string) string {
	s.t.Helper()
	v := s.initializeOnly(version, caps)
	s.notify("notifications/initialized", nil)
	return v
}

// initializeOnly sends initialize but not notifications/initialized.
func (s *session) initializeOnly(version, caps string) string {
	s.t.Helper()
	params := json.RawMessage(`{"protocolVersion":"` + version + `","capabilities":` + caps +
		`,"clientInfo":{"name":"hostile","version":"0"}}`)
	m := s.call("initialize", params)
	var res struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	if m.Error != nil || json.Unmarshal(m.Result, &res) != nil {
		s.t.Fatalf("initialize at %s: %.300s", version, m.Raw)
	}
	return res.ProtocolVersion
}

// legacy starts grove on root and runs the legacy handshake without client
// capabilities.
func legacy(t *testing.T, root string, flags ...string) *session {
	t.Helper()
	s := start(t, append([]string{"--root", root}, flags...)...)
	if v := s.initialize(legacyVersion, "{}"); v != legacyVersion {
		t.Fatalf("negotiated %q, want %q", v, legacyVersion)
	}
	return s
}
