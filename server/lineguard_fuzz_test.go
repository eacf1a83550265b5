package server

import (
	"bufio"
	"bytes"
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// Whatever a client writes, the line guard passes on only lines the SDK can
// decode and answers every other non-blank line with one JSON-RPC error; it
// never panics.
func FuzzLineGuard(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"ping"}`,
		`[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"x"}]`,
		`{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`,
		`[]`, `[1]`, `{`, `"text"`, "\x00\xff", `{"id":"7","result":{}}`,
	} {
		f.Add([]byte(s + "\n" + s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		var good, answers bytes.Buffer
		if err := copyLines(bufio.NewReaderSize(bytes.NewReader(in), 64), &good, &answers); err != nil {
			t.Fatal(err)
		}
		for _, line := range bytes.Split(bytes.TrimSuffix(good.Bytes(), []byte("\n")), []byte("\n")) {
			if len(line) == 0 {
				continue
			}
			if line[0] != '[' {
				if _, err := jsonrpc.DecodeMessage(line); err != nil {
					t.Errorf("passed on a line the SDK cannot decode: %q", line)
				}
			}
		}
		for _, line := range bytes.Split(bytes.TrimSuffix(answers.Bytes(), []byte("\n")), []byte("\n")) {
			if len(line) == 0 {
				continue
			}
			var msg struct {
				Error *struct{ Code int } `json:"error"`
			}
			if json.Unmarshal(line, &msg) != nil || msg.Error == nil {
				t.Errorf("answered with something that is not a JSON-RPC error: %q", line)
			}
		}
	})
}
