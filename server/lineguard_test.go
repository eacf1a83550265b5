package server

import (
	"bufio"
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCopyLines(t *testing.T) {
	ping := `{"jsonrpc":"2.0","id":2,"method":"ping"}`
	for _, tt := range []struct {
		name, in       string
		wantOut, wantE []string
	}{
		{"good lines pass", ping + "\n" + ping + "\r\n", []string{ping, ping}, nil},
		{"blank lines skipped", "\n  \n" + ping + "\n", []string{ping}, nil},
		{"last line without newline", ping, []string{ping}, nil},
		{"not JSON", "{not json\n" + ping + "\n", []string{ping},
			[]string{`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`}},
		{"JSON but not JSON-RPC keeps its id", `{"foo":1,"id":"a"}` + "\n", nil,
			[]string{`{"jsonrpc":"2.0","id":"a","error":{"code":-32600,"message":"Invalid Request"}}`}},
		{"an object id is not echoed", `{"id":{"x":1}}` + "\n", nil,
			[]string{`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request"}}`}},
		{"empty batch", "[]\n", nil,
			[]string{`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request"}}`}},
		{"good batch passes", "[" + ping + "]\n", []string{"[" + ping + "]"}, nil},
		{"too long", `{"jsonrpc":"2.0","method":"x","params":"` + strings.Repeat("a", maxLine) + "\"}\n" + ping + "\n", []string{ping},
			[]string{`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"message too large"}}`}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var out, errs bytes.Buffer
			if err := copyLines(bufio.NewReader(strings.NewReader(tt.in)), &out, &errs); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.wantOut, lines(out.String())); diff != "" {
				t.Errorf("passed lines mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantE, lines(errs.String())); diff != "" {
				t.Errorf("answers mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func lines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}
