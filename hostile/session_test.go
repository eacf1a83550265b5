package hostile

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// session is one grove process and the raw client on its stdio.
type session struct {
	t      *testing.T // where failures are reported: the owner, or a subtest using the session
	owner  *testing.T // the test that started grove and ends it
	done   bool       // grove was stopped
	cmd    *exec.Cmd
	stdin  *os.File
	lines  chan []byte // the server's lines; closed at the end of its output
	stderr *lockedBuffer
	nextID int
	eof    bool

	// How the client answers grove's roots/list requests: with these roots
	// (file:// URIs), or not at all when ignoreRootsList is set.
	clientRoots     []string
	ignoreRootsList bool

	serverRequests []*message // requests grove sent, in order
	notes          []*message // notifications grove sent, in order
}

// message is one line grove wrote: a JSON-RPC message, or a batch of them.
type message struct {
	Raw    []byte          `json:"-"`
	Batch  []*message      `json:"-"`
	ID     json.RawMessage `json:"id"` // exactly as written; "null" for an explicit null
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  *rpcError       `json:"error"`
}

type rpcError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data"`
}

func (m *message) isResponse() bool { return m.Batch != nil || m.Method == "" }

func (m *message) isServerRequest() bool { return m.Batch == nil && m.Method != "" && m.ID != nil }

// start runs grove with args (e.g. "--root", dir). The process is stopped,
// and its clean exit checked, when the test ends.
func start(t *testing.T, args ...string) *session {
	t.Helper()
	bin := groveBinary(t)
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	s := &session{t: t, owner: t, stdin: inW, lines: make(chan []byte, 1024), stderr: &lockedBuffer{}}
	s.cmd = exec.Command(bin, args...)
	s.cmd.Stdin, s.cmd.Stdout, s.cmd.Stderr = inR, outW, s.stderr
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	inR.Close()
	outW.Close()
	go readLines(outR, s.lines)
	t.Cleanup(s.finish)
	return s
}

func readLines(r io.ReadCloser, lines chan<- []byte) {
	defer close(lines)
	defer r.Close()
	br := bufio.NewReaderSize(r, 1<<20)
	for {
		line, err := br.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			lines <- line
		}
		if err != nil {
			return
		}
	}
}

// lockedBuffer collects the server's stderr for failure messages.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) tail() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	s := b.buf.String()
	if len(s) > 4096 {
		s = "..." + s[len(s)-4096:]
	}
	return s
}

// finish ends the session: it closes grove's input and reads what grove
// still writes (no answer is due any more), then checks that grove exited
// with status 0. After a failure it kills grove instead of waiting for it.
func (s *session) finish() {
	if s.done {
		return
	}
	s.t = s.owner
	t := s.t
	if t.Failed() {
		s.kill()
		t.Logf("grove's stderr (tail):\n%s", s.stderr.tail())
		return
	}
	s.done = true
	s.stdin.Close()
	deadline := time.NewTimer(closeTimeout)
	defer deadline.Stop()
	for !s.eof {
		select {
		case line, ok := <-s.lines:
			if !ok {
				s.eof = true
				break
			}
			if m := s.parse(line); m != nil && m.isResponse() {
				t.Errorf("answer after the end of input, when none was due: %.300s", m.Raw)
			}
		case <-deadline.C:
			t.Errorf("grove did not end its output within %v of the end of its input", closeTimeout)
			s.cmd.Process.Kill()
			s.cmd.Wait()
			return
		}
	}
	if err := s.cmd.Wait(); err != nil {
		t.Errorf("grove exited with %v; stderr (tail):\n%s", err, s.stderr.tail())
	}
}

// kill stops grove at once.
func (s *session) kill() {
	s.done = true
	s.cmd.Process.Kill()
	s.cmd.Wait()
}

// inSessions runs each case as a subtest of t on a shared session made by
// open. A failed case may leave its session stuck or dead, so the next case
// gets a new one.
func inSessions[C any](t *testing.T, open func(t *testing.T) *session, cases []C, name func(C) string, run func(t *testing.T, s *session, c C)) {
	t.Helper()
	var s *session
	for _, c := range cases {
		if s == nil {
			s = open(t)
		}
		ok := t.Run(name(c), func(t *testing.T) {
			s.t = t
			defer func() {
				if t.Failed() {
					t.Logf("grove's stderr (tail):\n%s", s.stderr.tail())
				}
			}()
			run(t, s, c)
		})
		s.t = t
		if !ok {
			s.kill()
			s = nil
		}
	}
}

// send writes one line exactly as given, plus a newline.
func (s *session) send(line string) {
	s.t.Helper()
	s.sendBytes([]byte(line))
}

func (s *session) sendBytes(line []byte) {
	s.t.Helper()
	if err := s.stdin.SetWriteDeadline(time.Now().Add(writeTimeout)); err != nil && !errors.Is(err, os.ErrNoDeadline) {
		s.t.Fatal(err)
	}
	buf := make([]byte, 0, len(line)+1)
	buf = append(append(buf, line...), '\n')
	if _, err := s.stdin.Write(buf); err != nil {
		s.t.Fatalf("writing %d bytes to grove: %v", len(buf), err)
	}
}

// request sends a request with a fresh integer id and returns the id.
func (s *session) request(method string, params any) string {
	s.t.Helper()
	s.nextID++
	id := strconv.Itoa(s.nextID)
	s.send(encodeMessage(s.t, id, method, params))
	return id
}

// notify sends a notification.
func (s *session) notify(method string, params any) {
	s.t.Helper()
	s.send(encodeMessage(s.t, "", method, params))
}

// encodeMessage builds a request (id not empty) or notification line.
// params is marshalled, unless it is a json.RawMessage (sent as is) or nil
// (no params member).
func encodeMessage(t *testing.T, id, method string, params any) string {
	t.Helper()
	var b strings.Builder
	b.WriteString(`{"jsonrpc":"2.0",`)
	if id != "" {
		b.WriteString(`"id":` + id + `,`)
	}
	m, err := json.Marshal(method)
	if err != nil {
		t.Fatal(err)
	}
	b.WriteString(`"method":`)
	b.Write(m)
	if params != nil {
		raw, ok := params.(json.RawMessage)
		if !ok {
			if raw, err = json.Marshal(params); err != nil {
				t.Fatal(err)
			}
		}
		b.WriteString(`,"params":`)
		b.Write(raw)
	}
	b.WriteString(`}`)
	return b.String()
}

// call sends a request and waits for its answer.
func (s *session) call(method string, params any) *message {
	s.t.Helper()
	return s.await(s.request(method, params), callTimeout)
}
