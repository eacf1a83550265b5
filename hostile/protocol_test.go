package hostile

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// legacyOn returns a session opener for a legacy client on root.
func legacyOn(root string) func(t *testing.T) *session {
	return func(t *testing.T) *session { return legacy(t, root) }
}

// fileRoot is a root holding a.txt.
func fileRoot(t *testing.T) string {
	t.Helper()
	root := tempRoot(t)
	writeFiles(t, root, map[string]string{"a.txt": "alpha\n"})
	return root
}

// Issue 11 item 1: a control character in a resource URI once made grove
// write an error that is not JSON, and die. Contract P1: the not-found error
// (-32002 in a legacy session) with the request's id, as a valid line. A
// subscription may be to a file that does not exist yet, so subscribe and
// unsubscribe may also succeed; they must answer, validly.
func TestControlCharactersInResourceURIs(t *testing.T) {
	t.Parallel()
	root := fileRoot(t)
	base := fileURI(root) + "/a.txt"
	var cases []exchange
	for _, method := range []string{"resources/read", "resources/subscribe", "resources/unsubscribe"} {
		for i, suffix := range []string{
			`\u0000/x`, `\u0000`, `\u0001`, `\u001b[31m`, `\u007f`, `\u0008\u000c\n\r\t`,
			`%00`, `%00/x`, `%1b`, `\u2028\u2029`, `\ud800`, "\xff\xfe", `\"}`,
		} {
			id := strconv.Itoa(100 + i)
			e := exchange{
				name:      method + "/" + strconv.Quote(suffix),
				line:      requestLine(id, method, `{"uri":"`+base+suffix+`"}`),
				wantIDs:   []string{id},
				wantCodes: []int{-32002},
				check:     checkURIData(`"` + base + suffix + `"`),
			}
			// A subscription may name a file that does not exist yet.
			e.anyAnswer = method != "resources/read"
			cases = append(cases, e)
		}
	}
	runExchanges(t, legacyOn(root), cases)
}

// checkURIData checks that an error's data, if it names a uri, names the
// one sent (given as a JSON string literal, decoded the same way).
func checkURIData(sent string) func(t *testing.T, m *message) {
	return func(t *testing.T, m *message) {
		t.Helper()
		if m.Error == nil || len(m.Error.Data) == 0 {
			return
		}
		var data struct {
			URI *string `json:"uri"`
		}
		if err := json.Unmarshal(m.Error.Data, &data); err != nil {
			t.Errorf("error data %s is not an object: %v", m.Error.Data, err)
			return
		}
		var want string
		if json.Unmarshal([]byte(sent), &want) != nil || data.URI == nil {
			return
		}
		if *data.URI != want {
			t.Errorf("error data uri %q, want the uri sent, %q", *data.URI, want)
		}
	}
}

// Issue 11 item 1, same class: every other place a client string comes back
// in an answer (tool errors, prompt errors, completions, method names) gets
// a valid line with the request's id.
func TestControlCharactersElsewhere(t *testing.T) {
	t.Parallel()
	root := fileRoot(t)
	bad := `a.txt\u0000\u0001\u001b\u007f%00`
	var cases []exchange
	add := func(name, line string, codes ...int) {
		id := strconv.Itoa(200 + len(cases))
		line = strings.Replace(line, "ID", id, 1)
		cases = append(cases, exchange{name: name, line: line, wantIDs: []string{id}, wantCodes: codes})
	}
	anyError := []int{-32602, -32002, -32603, -32600}
	add("read_file", `{"jsonrpc":"2.0","id":ID,"method":"tools/call","params":{"name":"read_file","arguments":{"path":"`+bad+`"}}}`)
	add("file_info", `{"jsonrpc":"2.0","id":ID,"method":"tools/call","params":{"name":"file_info","arguments":{"path":"`+bad+`"}}}`)
	add("read_files", `{"jsonrpc":"2.0","id":ID,"method":"tools/call","params":{"name":"read_files","arguments":{"paths":["`+bad+`","\u0000"]}}}`)
	add("grep", `{"jsonrpc":"2.0","id":ID,"method":"tools/call","params":{"name":"grep","arguments":{"pattern":"\u0000(","glob":"\u0000"}}}`)
	add("search_files", `{"jsonrpc":"2.0","id":ID,"method":"tools/call","params":{"name":"search_files","arguments":{"path":".","pattern":"\u0000[\u001b"}}}`)
	add("git_show", `{"jsonrpc":"2.0","id":ID,"method":"tools/call","params":{"name":"git_show","arguments":{"revision":"`+bad+`"}}}`)
	add("tool name", `{"jsonrpc":"2.0","id":ID,"method":"tools/call","params":{"name":"`+bad+`","arguments":{}}}`, anyError...)
	add("prompt path", `{"jsonrpc":"2.0","id":ID,"method":"prompts/get","params":{"name":"review_file","arguments":{"path":"`+bad+`"}}}`, anyError...)
	add("prompt name", `{"jsonrpc":"2.0","id":ID,"method":"prompts/get","params":{"name":"`+bad+`"}}`, anyError...)
	add("completion", `{"jsonrpc":"2.0","id":ID,"method":"completion/complete","params":{"ref":{"type":"ref/resource","uri":"file:///{+path}"},"argument":{"name":"path","value":"`+bad+`"}}}`)
	add("method name", `{"jsonrpc":"2.0","id":ID,"method":"`+bad+`"}`, -32601)
	add("setLevel", `{"jsonrpc":"2.0","id":ID,"method":"logging/setLevel","params":{"level":"`+bad+`"}}`, -32602)
	runExchanges(t, legacyOn(root), cases)
}

// Issue 11 item 2 and contract P2: batches are JSON-RPC 2.0 under
// 2025-03-26 (notifications unanswered, the answers as one array line) and
// an invalid request (-32600, id null) from 2025-06-18 on; an empty batch is
// invalid in every era. The session always goes on.
func TestBatches(t *testing.T) {
	t.Parallel()
	const (
		note1 = `{"jsonrpc":"2.0","method":"notifications/x"}`
		note2 = `{"jsonrpc":"2.0","method":"notifications/y"}`
	)
	ping1, ping2 := pingLine(`"b1"`), pingLine(`"b2"`)
	cases := []struct {
		name  string
		batch string
		want  []string // the ids answered in the array under 2025-03-26; nil: no line at all
	}{
		{"two notifications", "[" + note1 + "," + note2 + "]", nil},
		{"ping and notification", "[" + ping1 + "," + note1 + "]", []string{`"b1"`}},
		{"notification and ping", "[" + note1 + "," + ping1 + "]", []string{`"b1"`}},
		{"two pings", "[" + ping1 + "," + ping2 + "]", []string{`"b1"`, `"b2"`}},
		{"one ping", "[" + ping1 + "]", []string{`"b1"`}},
	}
	root := fileRoot(t)
	for _, version := range []string{batchVersion, "2025-06-18", legacyVersion} {
		var exchanges []exchange
		for _, tt := range cases {
			e := exchange{name: tt.name, line: tt.batch, wantIDs: []string{"null"}, wantCodes: []int{-32600}}
			if version == batchVersion {
				e = exchange{name: tt.name, line: tt.batch, noAnswer: tt.want == nil, batchIDs: tt.want}
			}
			exchanges = append(exchanges, e)
		}
		exchanges = append(exchanges, exchange{name: "empty", line: "[]", wantIDs: []string{"null"}, wantCodes: []int{-32600}})
		t.Run(version, func(t *testing.T) {
			t.Parallel()
			runExchanges(t, func(t *testing.T) *session {
				s := start(t, "--root", root)
				if v := s.initialize(version, "{}"); v != version {
					t.Fatalf("negotiated %q, want %q", v, version)
				}
				return s
			}, exchanges)
		})
	}
	t.Run("before initialize", func(t *testing.T) {
		t.Parallel()
		s := start(t, "--root", root)
		s.send("[" + ping1 + "]")
		checkInvalidRequest(t, s.nextResponse(time.Now().Add(callTimeout), "answer to the batch"))
		if v := s.initialize(legacyVersion, "{}"); v != legacyVersion {
			t.Errorf("negotiated %q after the batch, want %q", v, legacyVersion)
		}
		s.ping()
	})
	t.Run("modern", func(t *testing.T) {
		t.Parallel()
		s := start(t, "--root", root)
		s.send("[" + requestLine(`"m1"`, "server/discover", modernMeta) + "]")
		checkInvalidRequest(t, s.nextResponse(time.Now().Add(callTimeout), "answer to the batch"))
		m := s.await(s.request("server/discover", json.RawMessage(modernMeta)), pingTimeout)
		if m.Error != nil {
			t.Errorf("server/discover after the batch: %.300s", m.Raw)
		}
	})
}

// modernMeta is the params of a modern request without arguments.
const modernMeta = `{"_meta":{"io.modelcontextprotocol/protocolVersion":"` + modernVersion + `",` +
	`"io.modelcontextprotocol/clientInfo":{"name":"hostile","version":"0"},` +
	`"io.modelcontextprotocol/clientCapabilities":{}}}`

func checkInvalidRequest(t *testing.T, m *message) {
	t.Helper()
	if m.Batch != nil || string(m.ID) != "null" || m.Error == nil || m.Error.Code != -32600 {
		t.Errorf("answered %.300s, want one -32600 error with id null", m.Raw)
	}
}

func checkBatchAnswer(t *testing.T, m *message, ids []string) {
	t.Helper()
	if m.Batch == nil {
		t.Fatalf("answered %.300s, want one array line answering %v", m.Raw, ids)
	}
	var got []string
	for _, e := range m.Batch {
		got = append(got, string(e.ID))
		if e.Error != nil || string(e.Result) != "{}" {
			t.Errorf("batch answer %s, want an empty result", e.Raw)
		}
	}
	slices.Sort(got)
	if !slices.Equal(got, ids) {
		t.Errorf("batch answered ids %v, want %v", got, ids)
	}
}

// Issue 11 item 3 and contract P3: null and non-integer ids are invalid
// requests (answered with id null); integer ids of any size come back
// exactly as sent.
func TestIDs(t *testing.T) {
	t.Parallel()
	var cases []exchange
	for _, id := range []string{"null", "1.5", "1e3", "1E3", "1.0", "-0.5", "2e-1", "true", "{}", "[]", "[1]"} {
		cases = append(cases, exchange{name: "invalid " + id, line: pingLine(id), wantIDs: []string{"null"}, wantCodes: []int{-32600}})
	}
	for _, id := range []string{
		"9007199254740993", "-5", "0", "-0", "123456789012345678901234567890",
		"9223372036854775807", "9223372036854775808", "-9223372036854775809", "18446744073709551616",
		strings.Repeat("9", 400), `"9007199254740993"`, `""`, `"\u0000"`,
	} {
		cases = append(cases, exchange{name: "echo " + id[:min(len(id), 40)], line: pingLine(id), wantIDs: []string{id}})
	}
	runExchanges(t, legacyOn(fileRoot(t)), cases)
}
