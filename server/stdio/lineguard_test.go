package stdio

import (
	"bufio"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestReadLine(t *testing.T) {
	long := `{"id":1,"x":"` + strings.Repeat("a", maxLine) + `"}`
	r := bufio.NewReaderSize(strings.NewReader("a\r\n\n"+long+"\nlast"), 64)
	type result struct {
		Line    string
		Head    int
		TooLong bool
		Err     error
	}
	var got []result
	for {
		line, head, tooLong, err := readLine(r)
		got = append(got, result{string(line), len(head), tooLong, err})
		if err != nil {
			break
		}
	}
	want := []result{{"a", 0, false, nil}, {"", 0, false, nil}, {"", idScanBytes, true, nil}, {"last", 0, false, io.EOF}}
	if diff := cmp.Diff(want, got, cmp.Comparer(func(a, b error) bool { return a == b })); diff != "" {
		t.Errorf("lines mismatch (-want +got):\n%s", diff)
	}
}

func TestLeadingID(t *testing.T) {
	for _, tt := range []struct{ head, want string }{
		{`{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"x":"aaa`, `42`},
		{`{"method":"x","id":"a\"b","params":"aaa`, `"a\"b"`},
		{` { "id" : -7 , "params":`, `-7`},
		{`{"params":{"id":5},"id":6`, ``}, // 6 may go on: 60, 6.5
		{`{"params":{"id":5},"id":6,`, `6`},
		{`{"params":{"id":5,"x":"aaa`, ``},
		{`{"id":null,"params":`, ``},
		{`{"id":1.5,"params":`, ``},
		{`{"id":{"a":1},"params":`, ``},
		{`[{"id":1}`, ``},
		{`{"params":"aaa`, ``},
		{`not json`, ``},
		{``, ``},
	} {
		got := string(leadingID([]byte(tt.head)))
		if got != tt.want {
			t.Errorf("leadingID(%s) = %s, want %s", tt.head, got, tt.want)
		}
	}
}

func TestErrorLine(t *testing.T) {
	for _, tt := range []struct {
		id   json.RawMessage
		data json.RawMessage
		want string
	}{
		{nil, nil, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"m"}}`},
		{json.RawMessage(`"x"`), json.RawMessage(`{"a":1}`), `{"jsonrpc":"2.0","id":"x","error":{"code":-32600,"message":"m","data":{"a":1}}}`},
		{json.RawMessage(`7`), json.RawMessage(`{bad`), `{"jsonrpc":"2.0","id":7,"error":{"code":-32600,"message":"m"}}`},
		{json.RawMessage(`{bad`), nil, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"m"}}`},
	} {
		if got := string(errorLineData(tt.id, -32600, "m", tt.data)); got != tt.want {
			t.Errorf("errorLineData(%s, %s) = %s, want %s", tt.id, tt.data, got, tt.want)
		}
	}
}
