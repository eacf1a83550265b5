package stdio

import "testing"

func TestProgressToken(t *testing.T) {
	for _, tt := range []struct{ params, want string }{
		{`{"_meta":{"progressToken":9007199254740993}}`, `9007199254740993`},
		{`{"_meta":{"progressToken":1e3}}`, `1e3`},
		{`{"_meta":{"progressToken":1.0}}`, `1.0`},
		{`{"_meta":{"progressToken":-12345678901234567890}}`, `-12345678901234567890`},
		{`{"_meta":{"progressToken":5}}`, ``},
		{`{"_meta":{"progressToken":1.5}}`, ``},
		{`{"_meta":{"progressToken":"9007199254740993"}}`, ``},
		{`{"_meta":{"progressToken":null}}`, ``},
		{`{"_meta":{"progressToken":{"a":1}}}`, ``},
		{`{"name":"progressToken"}`, ``},
		{`{"_meta":"progressToken"}`, ``},
	} {
		if got := string(progressToken([]byte(tt.params))); got != tt.want {
			t.Errorf("progressToken(%s) = %s, want %s", tt.params, got, tt.want)
		}
	}
}

func TestIsInteger(t *testing.T) {
	for s, want := range map[string]bool{
		"0": true, "-0": true, "7": true, "-5": true, "123456789012345678901234567890": true,
		"": false, "-": false, "01": false, "1.5": false, "1e3": false, "1E3": false, "+1": false, `"1"`: false, "null": false,
	} {
		if got := isInteger([]byte(s)); got != want {
			t.Errorf("isInteger(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestWithClientID(t *testing.T) {
	for _, tt := range []struct {
		data string
		n    int64
		raw  string
		want string
	}{
		{`{"jsonrpc":"2.0","id":3,"result":{}}`, 3, `9007199254740993`, `{"jsonrpc":"2.0","id":9007199254740993,"result":{}}`},
		{`{"jsonrpc":"2.0","id":3}`, 3, `"a"`, `{"jsonrpc":"2.0","id":"a"}`},
		{`{"jsonrpc":"2.0","id":31,"result":{}}`, 3, `"a"`, `{"id":"a","jsonrpc":"2.0","result":{}}`}, // not the prefix: the field is set
		{`{"id":3,"jsonrpc":"2.0","result":{"x":"<"}}`, 3, `-5`, `{"id":-5,"jsonrpc":"2.0","result":{"x":"<"}}`},
	} {
		if got := string(withClientID([]byte(tt.data), tt.n, []byte(tt.raw))); got != tt.want {
			t.Errorf("withClientID(%s, %d, %s) = %s, want %s", tt.data, tt.n, tt.raw, got, tt.want)
		}
	}
}
