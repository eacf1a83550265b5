package stdio

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/grove-mcp/grove/internal/servertest"
	"github.com/grove-mcp/grove/server"
)

// issueLines are the lines of issue 11's items 1-6, and their neighbours:
// each seeds the fuzz targets. ${ROOT} stands for the root.
var issueLines = []string{
	// 1: control characters in URIs
	`{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"file://${ROOT}/a.txt\u0000/x"}}`,
	`{"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":"file://${ROOT}/a.txt\u0001/x"}}`,
	`{"jsonrpc":"2.0","id":4,"method":"resources/read","params":{"uri":"file://${ROOT}/a.txt\u001b/x"}}`,
	`{"jsonrpc":"2.0","id":5,"method":"resources/read","params":{"uri":"file://${ROOT}/a.txt\u007f/x"}}`,
	`{"jsonrpc":"2.0","id":6,"method":"resources/subscribe","params":{"uri":"file://${ROOT}/a.txt\u0000/x"}}`,
	`{"jsonrpc":"2.0","id":7,"method":"resources/read","params":{"uri":"nope://\u0000"}}`,
	// 2: batches
	`[{"jsonrpc":"2.0","method":"notifications/x"},{"jsonrpc":"2.0","method":"notifications/y"}]`,
	`[{"jsonrpc":"2.0","id":8,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/x"}]`,
	`[{"jsonrpc":"2.0","id":9,"method":"ping"},{"jsonrpc":"2.0","id":9,"method":"ping"},1,{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":9}}]`,
	`[]`,
	// 3: ids
	`{"jsonrpc":"2.0","id":null,"method":"ping"}`,
	`{"jsonrpc":"2.0","id":1.5,"method":"ping"}`,
	`{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}`,
	`{"jsonrpc":"2.0","id":-5,"method":"tools/call","params":{"name":"git_log","arguments":{"repo_path":"${ROOT}"},"_meta":{"progressToken":123456789012345678901234567890}}}`,
	// 4: a message too large for its line is not fuzzed (16 MiB); its start is
	`{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"name":"git_commit","arguments":{"message":"`,
	// 5: cancellation
	`{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"git_status","arguments":{"repo_path":"${ROOT}"}}}`,
	`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":10}}`,
	`{"jsonrpc":"2.0","id":11,"method":"subscriptions/listen","params":{"notifications":{"resourcesListChanged":true},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`,
	`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":11}}`,
	// 6: invalid params
	`{"jsonrpc":"2.0","id":12,"method":"resources/read"}`,
	`{"jsonrpc":"2.0","id":13,"method":"resources/read","params":{}}`,
	`{"jsonrpc":"2.0","id":14,"method":"logging/setLevel","params":{"level":"verbose"}}`,
	`{"jsonrpc":"2.0","id":15,"method":"logging/setLevel","params":{}}`,
	// neighbours
	`{"jsonrpc":"2.0","id":16,"method":"tools/call","params":{"name":"read_file","arguments":{"path":"${ROOT}/a.txt"}}}`,
	`{"jsonrpc":"2.0","id":17,"method":"prompts/get","params":{"name":"review_file","arguments":{"path":"${ROOT}/a.txt"}}}`,
	`{"jsonrpc":"2.0","id":18,"method":"completion/complete","params":{"ref":{"type":"ref/resource","uri":"file:///{+path}"},"argument":{"name":"path","value":"${ROOT}/"}}}`,
	`{"jsonrpc":"2.0","id":19,"method":"resources/list","params":{"cursor":"\u0000"}}`,
	`{"jsonrpc":"2.0","id":1,"result":{"roots":[{"uri":"file:///"}]}}`,
	`{not json`, `"text"`, "\x00\xff",
}

// Whatever lines a client writes after a valid handshake, the server
// answers with valid JSON only, no panic escapes, and a ping after them is
// answered. Each input is a session of one server (a worker's), served as
// Run serves stdin and stdout.
func FuzzServerLines(f *testing.F) {
	root := fuzzRoot(f)
	s, err := server.New(server.Config{Roots: []string{root}, ReadOnly: true})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { s.Close() })
	c := &carrier{}
	s.MCP().AddReceivingMiddleware(c.results)
	serve := func(in io.Reader, out io.Writer) error {
		return serve(context.Background(), s, c, in, out)
	}
	for _, l := range issueLines {
		f.Add([]byte(l))
	}
	f.Add([]byte(strings.Join(issueLines, "\n")))
	f.Fuzz(func(t *testing.T, in []byte) {
		serveLines(t, serve, bytes.ReplaceAll(in, []byte("${ROOT}"), []byte(root)))
	})
}

const finalPing = `{"jsonrpc":"2.0","id":"\u0000final","method":"ping"}`

// serveLines serves one session over pipes, writes a handshake, in and a
// ping, and checks what comes out.
func serveLines(t *testing.T, serve func(io.Reader, io.Writer) error, in []byte) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- serve(inR, outW)
		inR.Close()
		outW.Close()
	}()
	var mu sync.Mutex // guards writes to inW from two goroutines (whole lines)
	writeLine := func(b []byte) {
		mu.Lock()
		defer mu.Unlock()
		_, _ = inW.Write(append(b, '\n')) // fails only once the server stopped reading
	}
	ponged := make(chan struct{})
	read := make(chan struct{})
	go func() {
		defer close(read)
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 64<<20)
		pongs := 0
		for sc.Scan() {
			line := sc.Bytes()
			var msg struct {
				JSONRPC string          `json:"jsonrpc"`
				ID      json.RawMessage `json:"id"`
				Method  string          `json:"method"`
				Result  json.RawMessage `json:"result"`
			}
			switch {
			case !json.Valid(line):
				t.Errorf("output line is not JSON: %q", line)
			case line[0] == '[':
			case json.Unmarshal(line, &msg) != nil || msg.JSONRPC != "2.0":
				t.Errorf("output line is not a JSON-RPC message: %q", line)
			case msg.Method != "" && msg.ID != nil: // the server asks: a client that has nothing
				go writeLine([]byte(`{"jsonrpc":"2.0","id":` + string(msg.ID) + `,"error":{"code":-32601,"message":"not supported"}}`))
			case string(msg.ID) == `"\u0000final"` && string(msg.Result) == `{}`:
				if pongs++; pongs == 1 {
					close(ponged)
				}
			}
		}
	}()
	writeLine([]byte(`{"jsonrpc":"2.0","id":"\u0000init","method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"fuzz","version":"1"}}}`))
	writeLine([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`))
	writeLine(in)
	writeLine([]byte(finalPing))
	select {
	case <-ponged:
	case <-time.After(10 * time.Second):
		t.Errorf("no answer to a ping within 10s after %q", in)
	}
	mu.Lock()
	inW.Close()
	mu.Unlock()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Run: %v", err)
		}
	case <-time.After(wireTimeout):
		t.Fatalf("Run did not return in %v after the end of input", wireTimeout)
	}
	<-read
}

// fuzzRoot is a root that is also a go-git repository with one commit.
func fuzzRoot(f *testing.F) string {
	f.Helper()
	dir := servertest.RealTemp(f)
	servertest.Mkdirs(f, dir, "sub")
	for name, content := range map[string]string{"a.txt": "alpha\n", "sub/b.go": "package sub\n", ".gitignore": "*.log\n"} {
		servertest.Write(f, filepath.Join(dir, name), content)
	}
	servertest.CommitAll(f, dir)
	return dir
}
