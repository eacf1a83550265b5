package hostile

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Bounds of the suite. They bound hangs, not speed: a call that takes longer
// than callTimeout is one that grove would never have answered.
const (
	callTimeout  = 10 * time.Second // the bound for a call on a hostile repository
	pingTimeout  = 2 * time.Second  // the bound for "still alive"
	closeTimeout = 20 * time.Second // grove drains in-flight calls for up to 10 s at the end of input
	writeTimeout = 30 * time.Second // one line, even 20 MiB, into a server that reads
	peakRSSLimit = 256 << 20        // the bound on VmHWM while grove meets a huge object
)

// Protocol versions the sessions negotiate.
const (
	legacyVersion = "2025-11-25" // the newest legacy version: initialize handshake, no batches
	batchVersion  = "2025-03-26" // the last version with JSON-RPC batches
	modernVersion = "2026-07-28" // per-request _meta, no session
)

var build struct {
	once sync.Once
	dir  string
	path string
	err  error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if build.dir != "" {
		os.RemoveAll(build.dir)
	}
	os.Exit(code)
}

// groveBinary builds grove once per run. It is deliberately not a race build,
// whatever flags the test binary has: the peak memory the tests bound is the
// one users see, and the race detector multiplies it.
func groveBinary(t *testing.T) string {
	t.Helper()
	build.once.Do(func() {
		build.dir, build.err = os.MkdirTemp("", "grove-hostile-")
		if build.err != nil {
			return
		}
		build.path = filepath.Join(build.dir, "grove")
		if runtime.GOOS == "windows" {
			build.path += ".exe"
		}
		goTool, err := exec.LookPath("go")
		if err != nil {
			goTool = filepath.Join(os.Getenv("GOROOT"), "bin", "go")
		}
		cmd := exec.Command(goTool, "build", "-o", build.path, "github.com/grove-mcp/grove")
		cmd.Env = append(os.Environ(), "GOFLAGS=")
		if out, err := cmd.CombinedOutput(); err != nil {
			build.err = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if build.err != nil {
		t.Fatal(build.err)
	}
	return build.path
}

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

// quiet reads until deadline and returns the answers that came, serving
// grove's requests and keeping its notifications.
func (s *session) quiet(deadline time.Time) []*message {
	s.t.Helper()
	var got []*message
	for {
		m, ok := s.next(deadline)
		if !ok {
			if s.eof {
				s.t.Fatal("grove ended its output")
			}
			return got
		}
		if m.isResponse() {
			got = append(got, m)
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

// toolResult is what a tools/call answered.
type toolResult struct {
	msg     *message
	text    string // the text blocks, joined
	isError bool
	took    time.Duration
}

// callTool calls a tool and waits up to callTimeout. A JSON-RPC error
// answer fails the test unless allowRPCError; it is then returned in msg.
func (s *session) callTool(name string, args any) toolResult {
	s.t.Helper()
	return s.callToolWithin(name, args, callTimeout)
}

func (s *session) callToolWithin(name string, args any, d time.Duration) toolResult {
	s.t.Helper()
	begin := time.Now()
	id := s.request("tools/call", map[string]any{"name": name, "arguments": args})
	m := s.await(id, d)
	r := toolResult{msg: m, took: time.Since(begin)}
	if m.Error != nil {
		return r
	}
	var res struct {
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
		IsError bool `json:"isError"`
	}
	if err := json.Unmarshal(m.Result, &res); err != nil {
		s.t.Fatalf("%s: result %.300s: %v", name, m.Raw, err)
	}
	var texts []string
	for _, c := range res.Content {
		texts = append(texts, c.Text)
	}
	r.text, r.isError = strings.Join(texts, "\n"), res.IsError
	return r
}

// refused reports whether a tool call was refused: an isError result or a
// JSON-RPC invalid-params error.
func (r toolResult) refused() bool {
	return r.isError || r.msg.Error != nil && r.msg.Error.Code == -32602
}

// peakRSS is grove's peak resident set (VmHWM), in bytes. It skips the
// check where /proc is not there.
func (s *session) peakRSS() (int64, bool) {
	s.t.Helper()
	if runtime.GOOS != "linux" {
		s.t.Logf("peak RSS not checked on %s", runtime.GOOS)
		return 0, false
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", s.cmd.Process.Pid))
	if err != nil {
		s.t.Fatalf("reading grove's memory: %v", err)
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			if err != nil {
				s.t.Fatalf("VmHWM %q: %v", v, err)
			}
			return kb << 10, true
		}
	}
	s.t.Fatal("no VmHWM in /proc/PID/status")
	return 0, false
}

// checkPeakRSS fails the test if grove's peak RSS passed peakRSSLimit.
func (s *session) checkPeakRSS(what string) {
	s.t.Helper()
	if hwm, ok := s.peakRSS(); ok {
		s.t.Logf("%s: grove's peak RSS %d MiB", what, hwm>>20)
		if hwm > peakRSSLimit {
			s.t.Errorf("%s: grove's peak RSS is %d MiB, want < %d MiB", what, hwm>>20, peakRSSLimit>>20)
		}
	}
}

// writeFiles creates files (slash-separated names relative to dir) with
// their contents, and their parent directories.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// fileURI is the file:// URI of an absolute path.
func fileURI(p string) string { return "file://" + filepath.ToSlash(p) }

// jsonString is s as a JSON string literal.
func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// exists reports whether p exists (without following a final symlink).
func exists(t *testing.T, p string) bool {
	t.Helper()
	_, err := os.Lstat(p)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	return err == nil
}

// tempRoot returns a fresh directory with symlinks resolved (macOS's /tmp is
// a link, and grove reports resolved paths).
func tempRoot(t *testing.T) string {
	t.Helper()
	d, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return d
}
