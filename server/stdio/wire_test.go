package stdio

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// connHarness is a wireConn over pipes, the test playing both the client
// (lines in, lines out) and the SDK (Read and Write).
type connHarness struct {
	t     *testing.T
	conn  *wireConn
	queue chan string // lines for the client's writer goroutine
	lines chan []byte // lines the connection wrote
}

func newConnHarness(t *testing.T) *connHarness {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	mc, err := guardedStdio(inR, outW, &carrier{}, slog.New(slog.DiscardHandler)).Connect(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	h := &connHarness{t: t, conn: mc.(*wireConn), queue: make(chan string, 64), lines: make(chan []byte, 64)}
	go func() {
		for line := range h.queue {
			if _, err := io.WriteString(inW, line+"\n"); err != nil {
				return
			}
		}
		inW.Close()
	}()
	go func() {
		defer close(h.lines)
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			h.lines <- bytes.Clone(sc.Bytes())
		}
	}()
	t.Cleanup(func() {
		h.conn.Close()
		outW.Close()
		inR.Close()
	})
	return h
}

func (h *connHarness) send(lines ...string) {
	for _, l := range lines {
		h.queue <- l
	}
}

// read is the SDK's next Read.
func (h *connHarness) read() jsonrpc.Message {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), wireTimeout)
	defer cancel()
	msg, err := h.conn.Read(ctx)
	if err != nil {
		h.t.Fatalf("Read: %v", err)
	}
	return msg
}

func (h *connHarness) write(msg jsonrpc.Message) {
	h.t.Helper()
	if err := h.conn.Write(context.Background(), msg); err != nil {
		h.t.Fatalf("Write: %v", err)
	}
}

// answer writes the SDK's result for req.
func (h *connHarness) answer(req jsonrpc.Message, result string) {
	h.t.Helper()
	h.write(&jsonrpc.Response{ID: req.(*jsonrpc.Request).ID, Result: json.RawMessage(result)})
}

func (h *connHarness) line() string {
	h.t.Helper()
	select {
	case l, ok := <-h.lines:
		if !ok {
			h.t.Fatal("output ended")
		}
		return string(l)
	case <-time.After(wireTimeout):
		h.t.Fatalf("no line in %v", wireTimeout)
		return ""
	}
}

const sentinelMethod = "test/sentinel"

// settle sends a sentinel request and returns what the SDK read before it
// (encoded) and the lines written before its answer: everything the lines
// sent before it led to, with the SDK answering nothing.
func (h *connHarness) settle() (read, written []string) {
	h.t.Helper()
	h.send(`{"jsonrpc":"2.0","id":"sentinel","method":"` + sentinelMethod + `"}`)
	for {
		msg := h.read()
		if req, ok := msg.(*jsonrpc.Request); ok && req.Method == sentinelMethod {
			h.answer(req, `{}`)
			break
		}
		read = append(read, encode(h.t, msg))
	}
	for {
		l := h.line()
		if l == `{"jsonrpc":"2.0","id":"sentinel","result":{}}` {
			return read, written
		}
		written = append(written, l)
	}
}

// initialize plays a handshake that negotiates version.
func (h *connHarness) initialize(version string) {
	h.t.Helper()
	h.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"` + version + `","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	h.answer(h.read(), `{"protocolVersion":"`+version+`"}`)
	if got, want := h.line(), `{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"`+version+`"}}`; got != want {
		h.t.Fatalf("initialize answer = %s, want %s", got, want)
	}
}

func encode(t *testing.T, msg jsonrpc.Message) string {
	t.Helper()
	b, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// What the reader hands the SDK and what it answers itself, line by line.
func TestWireAccept(t *testing.T) {
	invalid := `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request"}}`
	for _, tt := range []struct {
		name, line     string
		read, answered []string
	}{
		{"request gets a synthetic id", `{"jsonrpc":"2.0","id":"x","method":"ping"}`,
			[]string{`{"jsonrpc":"2.0","id":1,"method":"ping"}`}, nil},
		{"notification passes", `{"jsonrpc":"2.0","method":"notifications/x","params":{"a":1}}`,
			[]string{`{"jsonrpc":"2.0","method":"notifications/x","params":{"a":1}}`}, nil},
		{"response passes", `{"jsonrpc":"2.0","id":5,"result":{}}`,
			[]string{`{"jsonrpc":"2.0","id":5,"result":{}}`}, nil},
		{"response without usable id dropped", `{"jsonrpc":"2.0","id":null,"error":{"code":1,"message":"x"}}`, nil, nil},
		{"id null", `{"jsonrpc":"2.0","id":null,"method":"ping"}`, nil, []string{invalid}},
		{"id fraction", `{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, nil, []string{invalid}},
		{"id exponent", `{"jsonrpc":"2.0","id":1e3,"method":"ping"}`, nil, []string{invalid}},
		{"id leading zero", `{"jsonrpc":"2.0","id":01,"method":"ping"}`, nil,
			[]string{`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`}},
		{"id true", `{"jsonrpc":"2.0","id":true,"method":"ping"}`, nil, []string{invalid}},
		{"id object", `{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, nil, []string{invalid}},
		{"null id on a notification method", `{"jsonrpc":"2.0","id":null,"method":"notifications/initialized"}`, nil, []string{invalid}},
		{"wrong version keeps the id", `{"jsonrpc":"1.0","id":3,"method":"ping"}`, nil,
			[]string{`{"jsonrpc":"2.0","id":3,"error":{"code":-32600,"message":"Invalid Request"}}`}},
		{"method not a string", `{"jsonrpc":"2.0","id":7,"method":42}`, nil,
			[]string{`{"jsonrpc":"2.0","id":7,"error":{"code":-32600,"message":"Invalid Request"}}`}},
		{"method null", `{"jsonrpc":"2.0","id":7,"method":null}`, nil,
			[]string{`{"jsonrpc":"2.0","id":7,"error":{"code":-32600,"message":"Invalid Request"}}`}},
		{"batch not JSON", `[{"jsonrpc":"2.0","method":"x"}] x`, nil,
			[]string{`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`}},
		{"neither request nor response", `{"jsonrpc":"2.0","id":"a"}`, nil,
			[]string{`{"jsonrpc":"2.0","id":"a","error":{"code":-32600,"message":"Invalid Request"}}`}},
		{"keys are case-sensitive", `{"jsonrpc":"2.0","ID":4,"Method":"ping"}`, nil, []string{invalid}},
		{"not an object", `"text"`, nil, []string{invalid}},
		{"not JSON", `{"jsonrpc":`, nil, []string{`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`}},
		{"invalid params", `{"jsonrpc":"2.0","id":9,"method":"resources/read","params":{}}`, nil,
			[]string{`{"jsonrpc":"2.0","id":9,"error":{"code":-32602,"message":"Invalid params: \"uri\" must be a non-empty string"}}`}},
		{"blank line", "  \t", nil, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := newConnHarness(t)
			h.send(tt.line)
			read, answered := h.settle()
			if diff := cmp.Diff(tt.read, read); diff != "" {
				t.Errorf("read by the SDK mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.answered, answered); diff != "" {
				t.Errorf("answered mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// Every integer id comes back byte for byte, every string id as sent, and
// two requests with one id both get their answer.
func TestWireIDs(t *testing.T) {
	ids := []string{`9007199254740993`, `-5`, `0`, `123456789012345678901234567890`, `"a\u0041"`, `""`, `"7"`, `7`, `7`}
	h := newConnHarness(t)
	for _, id := range ids {
		h.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"ping"}`)
	}
	var reqs []jsonrpc.Message
	for range ids {
		reqs = append(reqs, h.read())
	}
	seen := map[int64]bool{}
	for _, r := range reqs {
		n, ok := syntheticOf(r.(*jsonrpc.Request).ID)
		if !ok || seen[n] {
			t.Fatalf("the SDK read id %v: not a fresh synthetic id", r.(*jsonrpc.Request).ID)
		}
		seen[n] = true
		h.answer(r, `{}`)
	}
	var got []string
	for range ids {
		got = append(got, h.line())
	}
	var want []string
	for _, id := range ids {
		want = append(want, `{"jsonrpc":"2.0","id":`+id+`,"result":{}}`)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("answers mismatch (-want +got):\n%s", diff)
	}
}

// Batches run under 2025-03-26 and older, answered as one array; every other
// session gets one invalid-request error; an empty batch is always one.
func TestWireBatchEras(t *testing.T) {
	batch := `[{"jsonrpc":"2.0","id":1,"method":"ping"}]`
	for _, tt := range []struct {
		version string // "" no initialize
		line    string
		run     bool
	}{
		{"", batch, false},
		{"2024-11-05", batch, true},
		{"2025-03-26", batch, true},
		{"2025-06-18", batch, false},
		{"2025-11-25", batch, false},
		{"2025-03-26", `[{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}]`, false},
		{"2025-03-26", `[]`, false},
		{"2025-11-25", `[]`, false},
		{"2025-03-26", "[" + strings.Repeat(`{"jsonrpc":"2.0","method":"n"},`, maxBatch) + `1]`, false},
	} {
		t.Run(tt.version+" "+tt.line[:min(len(tt.line), 40)], func(t *testing.T) {
			h := newConnHarness(t)
			if tt.version != "" {
				h.initialize(tt.version)
			}
			h.send(tt.line)
			if !tt.run {
				read, answered := h.settle()
				if len(read) != 0 || len(answered) != 1 || !strings.HasPrefix(answered[0], `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,`) {
					t.Errorf("SDK read %q, answered %q; want nothing read and one invalid-request error", read, answered)
				}
				return
			}
			h.answer(h.read(), `{}`)
			if got, want := h.line(), `[{"jsonrpc":"2.0","id":1,"result":{}}]`; got != want {
				t.Errorf("batch answer %s, want %s", got, want)
			}
		})
	}
}

// In a batch, notifications get no answer, requests theirs (an invalid
// element its error), all in one array once the last is made; a batch of
// notifications gets no line at all.
func TestWireBatchAnswers(t *testing.T) {
	h := newConnHarness(t)
	h.initialize("2025-03-26")

	h.send(`[{"jsonrpc":"2.0","method":"notifications/x"},{"jsonrpc":"2.0","method":"notifications/y"}]`)
	read, answered := h.settle()
	if len(read) != 2 || answered != nil {
		t.Errorf("two notifications: SDK read %q, answered %q; want both read, nothing answered", read, answered)
	}

	h.send(`[{"jsonrpc":"2.0","id":"p","method":"ping"},{"jsonrpc":"2.0","method":"notifications/x"},1,{"jsonrpc":"2.0","id":"p","method":"ping"}]`)
	first, note, second := h.read(), h.read(), h.read()
	if encode(t, note) != `{"jsonrpc":"2.0","method":"notifications/x"}` {
		t.Errorf("second element read as %s", encode(t, note))
	}
	h.answer(second, `{"n":2}`)
	_, answered = h.settle()
	if answered != nil {
		t.Fatalf("batch answered before its last request: %q", answered)
	}
	h.answer(first, `{"n":1}`)
	want := `[{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request"}},` +
		`{"jsonrpc":"2.0","id":"p","result":{"n":2}},{"jsonrpc":"2.0","id":"p","result":{"n":1}}]`
	if got := h.line(); got != want {
		t.Errorf("batch answer\n got %s\nwant %s", got, want)
	}

	h.send(`[1,{"jsonrpc":"2.0","id":null,"method":"ping"}]`)
	_, answered = h.settle()
	if diff := cmp.Diff([]string{`[{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request"}},{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request"}}]`}, answered); diff != "" {
		t.Errorf("invalid elements mismatch (-want +got):\n%s", diff)
	}
}

// A batch's answers are held in memory until its last: past maxBatchBytes an
// answer becomes an error saying so.
func TestWireBatchBytes(t *testing.T) {
	h := newConnHarness(t)
	h.initialize("2025-03-26")
	h.send(`[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}]`)
	first, second := h.read(), h.read()
	big := `{"text":"` + strings.Repeat("a", maxBatchBytes-1000) + `"}`
	h.answer(first, big)
	h.answer(second, big)
	got := h.line()
	var answers []struct {
		ID    int
		Error *struct{ Code int }
	}
	if err := json.Unmarshal([]byte(got), &answers); err != nil || len(answers) != 2 {
		t.Fatalf("batch answer %.200s: %v", got, err)
	}
	if answers[0].ID != 1 || answers[0].Error != nil || answers[1].ID != 2 || answers[1].Error == nil || answers[1].Error.Code != jsonrpc.CodeInternalError {
		t.Errorf("answers %+v; want 1's result and an internal error for 2", answers)
	}
}

// After notifications/cancelled, no answer for the request is written; the
// SDK hears of the cancellation with its own id.
func TestWireCancel(t *testing.T) {
	for _, tt := range []struct {
		name, id, cancelID string
		cancelled          bool
	}{
		{"integer", `7`, `7`, true},
		{"string", `"x"`, `"\u0078"`, true},
		{"big integer", `9007199254740993`, `9007199254740993`, true},
		{"another id", `7`, `8`, false},
		{"string is not integer", `7`, `"7"`, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := newConnHarness(t)
			h.send(`{"jsonrpc":"2.0","id":` + tt.id + `,"method":"tools/call","params":{"name":"slow"}}`)
			req := h.read().(*jsonrpc.Request)
			h.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":` + tt.cancelID + `,"reason":"user"}}`)
			read, _ := h.settle()
			n, _ := syntheticOf(req.ID)
			var want []string
			if tt.cancelled {
				want = []string{`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":` + itoa(n) + `}}`}
			}
			if diff := cmp.Diff(want, read); diff != "" {
				t.Errorf("cancellations read by the SDK mismatch (-want +got):\n%s", diff)
			}
			h.answer(req, `{"content":[{"type":"text","text":"context canceled"}],"isError":true}`)
			_, written := h.settle()
			if tt.cancelled && written != nil || !tt.cancelled && len(written) != 1 {
				t.Errorf("written %q; want an answer only when not cancelled", written)
			}
		})
	}
}

// A cancellation for an answered request, or an initialize, changes nothing.
func TestWireCancelTooLate(t *testing.T) {
	h := newConnHarness(t)
	h.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	initReq := h.read()
	h.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":0}}`)
	if read, _ := h.settle(); read != nil {
		t.Errorf("the cancellation of initialize reached the SDK: %q", read)
	}
	h.answer(initReq, `{"protocolVersion":"2025-03-26"}`)
	if got := h.line(); !strings.Contains(got, `"id":0`) {
		t.Errorf("initialize answer %s", got)
	}
	h.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":0}}`)
	if read, written := h.settle(); read != nil || written != nil {
		t.Errorf("a late cancellation: SDK read %q, written %q; want nothing", read, written)
	}
}

// In a batch, a cancelled request's answer is left out of the array.
func TestWireCancelInBatch(t *testing.T) {
	h := newConnHarness(t)
	h.initialize("2025-03-26")
	h.send(`[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}]`)
	one, two, cancel := h.read(), h.read(), h.read()
	if req, ok := cancel.(*jsonrpc.Request); !ok || req.Method != "notifications/cancelled" {
		t.Fatalf("third message read %s", encode(t, cancel))
	}
	h.answer(two, `{}`)
	h.answer(one, `{}`)
	if got, want := h.line(), `[{"jsonrpc":"2.0","id":1,"result":{}}]`; got != want {
		t.Errorf("batch answer %s, want %s", got, want)
	}
}

// An answer that cannot be encoded becomes an internal error for its id; a
// notification that cannot be is dropped; the session goes on.
func TestWireUnencodable(t *testing.T) {
	h := newConnHarness(t)
	h.send(`{"jsonrpc":"2.0","id":"r","method":"resources/read","params":{"uri":"file:///x"}}`)
	req := h.read().(*jsonrpc.Request)
	h.write(&jsonrpc.Response{ID: req.ID, Error: &jsonrpc.Error{Code: -32602, Message: "Resource not found", Data: json.RawMessage(`{"uri":"\x00"}`)}})
	if got, want := h.line(), `{"jsonrpc":"2.0","id":"r","error":{"code":-32603,"message":"internal error: the answer could not be encoded; grove logged it and the session goes on"}}`; got != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
	h.send(`{"jsonrpc":"2.0","id":"typed-nil","method":"ping"}`)
	req = h.read().(*jsonrpc.Request)
	h.write(&jsonrpc.Response{ID: req.ID, Error: (*jsonrpc.Error)(nil)}) // encoding it panics
	if got, want := h.line(), `{"jsonrpc":"2.0","id":"typed-nil","error":{"code":-32603,"message":"`+unencodable+`"}}`; got != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
	h.write(&jsonrpc.Request{Method: "notifications/message", Params: json.RawMessage(`{"data":"\x00"}`)})
	h.send(`{"jsonrpc":"2.0","id":2,"method":"ping"}`)
	h.answer(h.read(), `{}`)
	if got, want := h.line(), `{"jsonrpc":"2.0","id":2,"result":{}}`; got != want {
		t.Errorf("after the dropped notification: %s, want %s", got, want)
	}
}

// An error message is cut at maxErrorMessage (the SDK quotes whole params
// in some).
func TestWireLongErrorMessage(t *testing.T) {
	h := newConnHarness(t)
	h.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}`)
	req := h.read().(*jsonrpc.Request)
	h.write(&jsonrpc.Response{ID: req.ID, Error: &jsonrpc.Error{Code: -32602, Message: strings.Repeat("é", maxErrorMessage)}})
	var resp struct {
		ID    int
		Error struct {
			Code    int
			Message string
		}
	}
	if err := json.Unmarshal([]byte(h.line()), &resp); err != nil {
		t.Fatal(err)
	}
	if resp.ID != 1 || resp.Error.Code != -32602 || len(resp.Error.Message) > maxErrorMessage+20 || !strings.HasSuffix(resp.Error.Message, "… (cut)") {
		t.Errorf("answer id %d code %d, message of %d bytes ending %q", resp.ID, resp.Error.Code, len(resp.Error.Message), resp.Error.Message[len(resp.Error.Message)-10:])
	}
}

// A number progress token the SDK's float64 would change is swapped for a
// string of grove's on the way in and back on the way out; the id of a
// subscriptions/listen is the client's in the notifications of its stream.
func TestWireProgressAndSubscriptionIDs(t *testing.T) {
	h := newConnHarness(t)
	h.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"git_log","_meta":{"progressToken":9007199254740993}}}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"git_log","_meta":{"progressToken":5}}}`,
		`{"jsonrpc":"2.0","id":123456789012345678901,"method":"subscriptions/listen","params":{"notifications":{}}}`)
	swapped, kept, listen := h.read().(*jsonrpc.Request), h.read().(*jsonrpc.Request), h.read().(*jsonrpc.Request)
	token := string(field(swapped.Params, "_meta", "progressToken"))
	if !strings.HasPrefix(token, `"\u0000grove-progress:`) {
		t.Fatalf("token read by the SDK: %s", token)
	}
	if got := string(kept.Params); got != `{"name":"git_log","_meta":{"progressToken":5}}` {
		t.Errorf("params with a token a float64 keeps changed: %s", got)
	}
	h.write(&jsonrpc.Request{Method: "notifications/progress", Params: json.RawMessage(`{"progressToken":` + token + `,"progress":1}`)})
	h.write(&jsonrpc.Request{Method: "notifications/progress", Params: json.RawMessage(`{"progressToken":5,"progress":1}`)})
	n, _ := syntheticOf(listen.ID)
	h.write(&jsonrpc.Request{Method: "notifications/resources/updated", Params: json.RawMessage(`{"_meta":{"io.modelcontextprotocol/subscriptionId":` + itoa(n) + `},"uri":"file:///a"}`)})
	h.answer(listen, `{"_meta":{"io.modelcontextprotocol/subscriptionId":`+itoa(n)+`}}`)
	want := []string{
		`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1,"progressToken":9007199254740993}}`,
		`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":5,"progress":1}}`,
		`{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":123456789012345678901},"uri":"file:///a"}}`,
		`{"jsonrpc":"2.0","id":123456789012345678901,"result":{"_meta":{"io.modelcontextprotocol/subscriptionId":123456789012345678901}}}`,
	}
	var got []string
	for range want {
		got = append(got, h.line())
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("messages mismatch (-want +got):\n%s", diff)
	}
}

// A line over maxLine is answered with the id found at its start, and the
// session goes on.
func TestWireTooLong(t *testing.T) {
	payload := strings.Repeat("a", maxLine)
	for _, tt := range []struct{ name, line, id string }{
		{"id first", `{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"name":"git_commit","arguments":{"message":"` + payload + `"}}}`, `42`},
		{"string id after method", `{"jsonrpc":"2.0","method":"tools/call","id":"c-1","params":"` + payload + `"}`, `"c-1"`},
		{"id after the payload", `{"jsonrpc":"2.0","method":"x","params":"` + payload + `","id":7}`, `null`},
		{"nested id is not the id", `{"params":{"id":5,"x":"` + payload + `"}}`, `null`},
		{"unusable id", `{"id":1.5,"params":"` + payload + `"}`, `null`},
		{"batch", `[{"jsonrpc":"2.0","id":3,"method":"x","params":"` + payload + `"}]`, `null`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := newConnHarness(t)
			h.send(tt.line)
			_, written := h.settle()
			want := []string{`{"jsonrpc":"2.0","id":` + tt.id + `,"error":{"code":-32600,"message":"message too large","data":{"maxBytes":16777216}}}`}
			if diff := cmp.Diff(want, written); diff != "" {
				t.Errorf("answer mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// At the end of input the SDK reads io.EOF, after every message before it.
func TestWireEOF(t *testing.T) {
	h := newConnHarness(t)
	h.send(`{"jsonrpc":"2.0","method":"notifications/x"}`)
	close(h.queue)
	h.read()
	ctx, cancel := context.WithTimeout(context.Background(), wireTimeout)
	defer cancel()
	if _, err := h.conn.Read(ctx); err != io.EOF {
		t.Errorf("Read at the end of input: %v, want io.EOF", err)
	}
}

func itoa(n int64) string { b, _ := json.Marshal(n); return string(b) }

// A panic while reading one line costs that line an internal error; the
// next line is read as ever.
func TestWireLinePanic(t *testing.T) {
	h := newConnHarness(t)
	h.conn.mu.Lock()
	h.conn.calls = nil // the next request's registration writes to a nil map
	h.conn.mu.Unlock()
	h.send(`{"jsonrpc":"2.0","id":1,"method":"ping"}`)
	if got, want := h.line(), `{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"internal error reading this message: grove logged it; the session goes on"}}`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	h.conn.mu.Lock()
	h.conn.calls = map[int64]*call{}
	h.conn.mu.Unlock()
	h.send(`{"jsonrpc":"2.0","id":2,"method":"ping"}`)
	h.answer(h.read(), `{}`)
	if got, want := h.line(), `{"jsonrpc":"2.0","id":2,"result":{}}`; got != want {
		t.Errorf("after the panic: %s, want %s", got, want)
	}
}
