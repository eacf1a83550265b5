package hostile

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Issue 11 item 6 and contract P6: a request missing a required param, or
// with one of the wrong type or outside its values, is invalid params
// (-32602).
func TestInvalidParams(t *testing.T) {
	t.Parallel()
	root := fileRoot(t)
	uri := jsonString(fileURI(root) + "/a.txt")
	var cases []exchange
	for _, c := range []struct{ method, params string }{
		{"resources/read", ""},
		{"resources/read", "{}"},
		{"resources/read", `{"uri":null}`},
		{"resources/read", `{"uri":5}`},
		{"resources/read", `{"uri":["` + fileURI(root) + `/a.txt"]}`},
		{"resources/read", `[` + uri + `]`},
		{"resources/read", `"` + fileURI(root) + `/a.txt"`},
		{"resources/subscribe", ""},
		{"resources/subscribe", "{}"},
		{"resources/subscribe", `{"uri":5}`},
		{"resources/unsubscribe", "{}"},
		{"resources/unsubscribe", `{"uri":{}}`},
		{"logging/setLevel", ""},
		{"logging/setLevel", "{}"},
		{"logging/setLevel", `{"level":"verbose"}`},
		{"logging/setLevel", `{"level":"INFO"}`},
		{"logging/setLevel", `{"level":""}`},
		{"logging/setLevel", `{"level":5}`},
		{"logging/setLevel", `{"level":null}`},
		{"prompts/get", "{}"},
		{"prompts/get", `{"name":5}`},
		{"prompts/get", `{"name":"review_file","arguments":{"path":5}}`},
		{"prompts/get", `{"name":"review_changes","arguments":{"staged":"maybe"}}`},
		{"completion/complete", "{}"},
		{"completion/complete", `{"ref":"file:///{+path}","argument":{"name":"path","value":""}}`},
		{"tools/call", "{}"},
		{"tools/call", `{"name":5}`},
		{"tools/call", `{"name":"no_such_tool","arguments":{}}`},
		{"resources/list", `{"cursor":5}`},
		{"resources/list", `{"cursor":"bogus"}`},
	} {
		id := strconv.Itoa(300 + len(cases))
		cases = append(cases, exchange{
			name:      c.method + " " + c.params,
			line:      requestLine(id, c.method, c.params),
			wantIDs:   []string{id},
			wantCodes: []int{-32602},
		})
	}
	runExchanges(t, legacyOn(root), cases)
}

// Contract P6, tools: an argument of the wrong type, a missing required one
// or an unknown one is refused (an isError result or -32602), for every tool
// that takes arguments.
func TestToolArgumentTypes(t *testing.T) {
	t.Parallel()
	root := gitRoot(t)
	var cases []exchange
	for _, c := range []struct{ tool, args string }{
		{"read_file", `{"path":5}`}, {"read_file", `{}`}, {"read_file", `{"path":"a.txt","head":"1"}`},
		{"read_file", `{"path":"a.txt","start_line":1.5}`}, {"read_file", `[]`}, {"read_file", `"a.txt"`},
		{"read_files", `{"paths":"a.txt"}`}, {"read_files", `{"paths":[5]}`},
		{"list_directory", `{"path":false}`}, {"read_file", `{"path":null}`}, {"directory_tree", `{"path":".","max_depth":"3"}`},
		{"search_files", `{"path":".","pattern":["*"]}`}, {"grep", `{"pattern":"a","max_results":true}`},
		{"file_info", `{"path":{}}`}, {"write_file", `{"path":"n.txt","content":5}`},
		{"edit_file", `{"path":"a.txt","edits":{"old_text":"a","new_text":"b"}}`},
		{"create_directory", `{"path":[]}`}, {"move_file", `{"source":"a.txt"}`},
		{"git_status", `{"repo_path":5}`}, {"git_log", `{"max_count":"5"}`}, {"git_log", `{"max_count":1e400}`},
		{"git_diff", `{"context_lines":"3"}`}, {"git_diff", `{"staged":"true"}`}, {"git_show", `{}`},
		{"git_show", `{"revision":["HEAD"]}`}, {"git_blame", `{"path":"a.txt","start_line":-1e30}`},
		{"git_branch", `{"branch_type":5}`}, {"git_tag", `{"name":false}`}, {"git_add", `{"files":"a.txt"}`},
		{"git_reset", `{"files":[null]}`}, {"git_commit", `{}`}, {"git_create_branch", `{"branch_name":5}`},
		{"git_checkout", `{"branch":null}`}, {"git_init", `{}`}, {"git_status", `{"repo_path":".","extra":1}`},
	} {
		id := 400 + len(cases)
		cases = append(cases, exchange{
			name:      c.tool + " " + c.args[:min(len(c.args), 60)],
			line:      toolLine(id, c.tool, c.args),
			wantIDs:   []string{strconv.Itoa(id)},
			anyAnswer: true, // check says which
			check: func(t *testing.T, m *message) {
				t.Helper()
				if m.Error != nil && m.Error.Code == -32602 {
					return
				}
				if m.Error != nil || !strings.Contains(string(m.Result), `"isError":true`) {
					t.Errorf("answered %.300s, want an isError result or -32602", m.Raw)
				}
			},
		})
	}
	runExchanges(t, legacyOn(root), cases)
}

// Same class as items 2-3: lines no client should send. Each gets its one
// answer (or none, for a notification) and the session goes on.
func TestMalformedLines(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("m", 1<<20)
	cases := []exchange{
		{name: "100k open brackets", line: nested(100_000, false), wantIDs: []string{"null"}, wantCodes: []int{-32700}},
		{name: "100k nested brackets", line: nested(100_000, true), wantIDs: []string{"null"}, wantCodes: []int{-32700, -32600}},
		{name: "100k nested objects", line: strings.Repeat(`{"a":`, 100_000) + "1" + strings.Repeat("}", 100_000), wantIDs: []string{"null"}, wantCodes: []int{-32700, -32600}},
		{name: "ping with 100k nested params", line: `{"jsonrpc":"2.0","id":9,"method":"ping","params":{"_meta":{"x":` + nested(100_000, true) + `}}}`, wantIDs: []string{"9", "null"}, wantCodes: []int{-32700, -32600, -32602}},
		{name: "ping with 9000 nested params", line: `{"jsonrpc":"2.0","id":9,"method":"ping","params":{"_meta":{"x":` + nested(9000, true) + `}}}`, wantIDs: []string{"9", "null"}, anyAnswer: true},
		{name: "tool argument 9000 deep", line: toolLine(20, "read_file", `{"path":`+nested(9000, true)+`}`), wantIDs: []string{"20", "null"}, anyAnswer: true},
		{name: "1 MiB method", line: `{"jsonrpc":"2.0","id":10,"method":"` + long + `"}`, wantIDs: []string{"10"}, wantCodes: []int{-32601}},
		{name: "1 MiB id", line: pingLine(`"` + long + `"`), wantIDs: []string{`"` + long + `"`}},
		{name: "1 MiB uri", line: `{"jsonrpc":"2.0","id":11,"method":"resources/read","params":{"uri":"file:///` + long + `"}}`, wantIDs: []string{"11"}, wantCodes: []int{-32002}},
		{name: "1 MiB tool name", line: toolLine(12, long, "{}"), wantIDs: []string{"12"}, wantCodes: []int{-32602}},
		{name: "no jsonrpc member", line: `{"id":13,"method":"ping"}`, wantIDs: []string{"13", "null"}, anyAnswer: true},
		{name: "jsonrpc 1.0", line: `{"jsonrpc":"1.0","id":14,"method":"ping"}`, wantIDs: []string{"14", "null"}, anyAnswer: true},
		{name: "method not a string", line: `{"jsonrpc":"2.0","id":15,"method":42}`, wantIDs: []string{"15", "null"}, wantCodes: []int{-32600}},
		{name: "params a number", line: `{"jsonrpc":"2.0","id":16,"method":"tools/list","params":5}`, wantIDs: []string{"16"}, wantCodes: []int{-32602, -32600}},
		{name: "not JSON", line: `{"jsonrpc":"2.0","id":17,"method":"ping"`, wantIDs: []string{"null"}, wantCodes: []int{-32700}},
		{name: "a string", line: `"ping"`, wantIDs: []string{"null"}, wantCodes: []int{-32600}},
		{name: "a number", line: `42`, wantIDs: []string{"null"}, wantCodes: []int{-32600}},
		{name: "null", line: `null`, wantIDs: []string{"null"}, wantCodes: []int{-32600}},
		{name: "NUL bytes", line: "\x00\x00\x00", wantIDs: []string{"null"}, wantCodes: []int{-32700}},
		{name: "BOM", line: "\xef\xbb\xbf" + pingLine("18"), wantIDs: []string{"null", "18"}, anyAnswer: true},
		{name: "duplicate ids in one object", line: `{"jsonrpc":"2.0","id":19,"id":20,"method":"ping"}`, wantIDs: []string{"19", "20", "null"}, anyAnswer: true},
	}
	runExchanges(t, legacyOn(fileRoot(t)), cases)
}

// Notifications and answers from the client are never answered, whatever
// they hold.
func TestNoAnswerDue(t *testing.T) {
	t.Parallel()
	var cases []exchange
	for _, line := range []string{
		`{"jsonrpc":"2.0","method":"notifications/x"}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":"x"}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":null}}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":999}}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"\u0000"}}`,
		`{"jsonrpc":"2.0","method":"notifications/progress","params":{}}`,
		`{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","method":"ping"}`,
		`{"jsonrpc":"2.0","method":"tools/call","params":{"name":"read_file","arguments":{"path":"a.txt"}}}`,
		`{"jsonrpc":"2.0","method":"resources/read","params":{"uri":"file:///\u0000"}}`,
		`{"jsonrpc":"2.0","method":"` + strings.Repeat("n", 1<<20) + `"}`,
		`{"jsonrpc":"2.0","id":99,"result":{}}`,
		`{"jsonrpc":"2.0","id":99,"error":{"code":-32601,"message":"no"}}`,
		`{"jsonrpc":"2.0","id":"\u0000","result":{"roots":[{"uri":"file:///"}]}}`,
	} {
		cases = append(cases, exchange{name: line[:min(len(line), 80)], line: line, noAnswer: true})
	}
	runExchanges(t, legacyOn(fileRoot(t)), cases)
}

// Same class as items 1 and 9: URIs and paths that climb out of the root,
// plainly or encoded, answer exactly as a missing file does, for reads and
// subscriptions alike.
func TestEscapingURIs(t *testing.T) {
	t.Parallel()
	top := tempRoot(t)
	root := filepath.Join(top, "root")
	writeFiles(t, root, map[string]string{"a.txt": "alpha\n", "sub/b.txt": "beta\n"})
	writeFiles(t, top, map[string]string{"outside.txt": "secret\n"})
	r := fileURI(root)
	var cases []exchange
	for _, uri := range []string{
		r + "/../outside.txt", r + "/%2e%2e/outside.txt", r + "/%2E%2E/outside.txt", r + "/sub/..%2f..%2foutside.txt",
		r + "/%2e%2e%2foutside.txt", r + "/./../outside.txt", r + "/sub/../../outside.txt", r + "/..%5coutside.txt",
		"file://localhost" + filepath.ToSlash(root) + "/../outside.txt", "file:" + filepath.ToSlash(root) + "/../outside.txt",
		fileURI(top) + "/outside.txt", "file://" + filepath.ToSlash(top) + "//outside.txt", r + "/../" + filepath.Base(root) + "/../outside.txt",
	} {
		for _, method := range []string{"resources/read", "resources/subscribe", "resources/unsubscribe"} {
			id := strconv.Itoa(500 + len(cases))
			cases = append(cases, exchange{
				name:      method + " " + strings.TrimPrefix(uri, r),
				line:      requestLine(id, method, `{"uri":`+jsonString(uri)+`}`),
				wantIDs:   []string{id},
				wantCodes: []int{-32002},
				// On Linux "..\outside.txt" is a name a file in the root may
				// come to have: a subscription to it may stand.
				anyAnswer: strings.Contains(uri, "%5c") && method != "resources/read",
			})
		}
	}
	for _, p := range []string{"../outside.txt", "sub/../../outside.txt", root + "/../outside.txt", "%2e%2e/outside.txt", ".."} {
		for _, tool := range []string{"read_file", "file_info", "list_directory"} {
			id := 600 + len(cases)
			cases = append(cases, exchange{
				name:    tool + " " + strings.TrimPrefix(p, root),
				line:    toolLine(id, tool, `{"path":`+jsonString(p)+`}`),
				wantIDs: []string{strconv.Itoa(id)},
				check: func(t *testing.T, m *message) {
					if !strings.Contains(string(m.Result), `"isError":true`) || strings.Contains(string(m.Raw), "secret") {
						t.Errorf("answered %.300s, want an isError result", m.Raw)
					}
				},
			})
		}
	}
	runExchanges(t, legacyOn(root), cases)
}
