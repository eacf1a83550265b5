package stdio

import (
	"strings"
	"testing"
)

func TestInvalidParams(t *testing.T) {
	modernMeta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
	for _, tt := range []struct{ method, params, wantErr string }{
		{"resources/read", ``, "needs params"},
		{"resources/read", `null`, "needs params"},
		{"resources/read", `{}`, `"uri" must be a non-empty string`},
		{"resources/read", `{"uri":""}`, `"uri" must be a non-empty string`},
		{"resources/read", `{"uri":5}`, `"uri" must be a non-empty string`},
		{"resources/read", `[]`, "params must be an object"},
		{"resources/read", `"file:///a"`, "params must be an object"},
		{"resources/read", `{"uri":"file:///a"}`, ""},
		{"resources/subscribe", `{}`, `"uri"`},
		{"resources/unsubscribe", `{"uri":null}`, `"uri"`},
		{"resources/subscribe", `{` + modernMeta + `}`, ""}, // the SDK answers "method not found" first
		{"logging/setLevel", `{"level":"verbose"}`, `"level" must be one of`},
		{"logging/setLevel", `{}`, `"level" must be one of`},
		{"logging/setLevel", `{"level":"DEBUG"}`, `"level" must be one of`},
		{"logging/setLevel", `{"level":"emergency"}`, ""},
		{"logging/setLevel", `{` + modernMeta + `}`, ""},
		{"tools/call", `{}`, `"name"`},
		{"tools/call", `{"name":"x","arguments":[]}`, `"arguments" must be an object`},
		{"tools/call", `{"name":"x","arguments":null}`, ""},
		{"tools/call", `{"name":"x","arguments":"a=1"}`, `"arguments" must be an object`},
		{"tools/call", `{"name":"x"}`, ""},
		{"prompts/get", `{"arguments":{}}`, `"name"`},
		{"prompts/get", `{"name":"review_file","arguments":{"path":"a"}}`, ""},
		{"completion/complete", `{}`, `"ref" must be an object`},
		{"completion/complete", `{"ref":{"type":"ref/prompt"},"argument":{"name":"a","value":""}}`, `"ref": "name" must be a string`},
		{"completion/complete", `{"ref":{"type":"ref/x"},"argument":{"name":"a","value":""}}`, `"type" must be`},
		{"completion/complete", `{"ref":{"type":"ref/resource","uri":"file:///{+path}"}}`, `"argument" must be an object`},
		{"completion/complete", `{"ref":{"type":"ref/resource","uri":"file:///{+path}"},"argument":{"name":"path"}}`, `"value" must be a string`},
		{"completion/complete", `{"ref":{"type":"ref/resource","uri":"file:///{+path}"},"argument":{"name":"path","value":""}}`, ""},
		{"initialize", ``, "needs params"},
		{"initialize", `{"protocolVersion":"2025-11-25","capabilities":{}}`, `"clientInfo" must be an object`},
		{"initialize", `{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}`, ""},
		{"subscriptions/listen", `{` + modernMeta + `}`, `"notifications" must be an object`},
		{"tools/list", ``, ""},
		{"tools/list", `{"cursor":7}`, `"cursor" must be a string`},
		{"resources/templates/list", `{"cursor":"abc"}`, ""},
		{"ping", ``, ""},
		{"no/such/method", `{}`, ""},
	} {
		got := invalidParams(tt.method, []byte(tt.params))
		if tt.wantErr == "" && got != "" || !strings.Contains(got, tt.wantErr) {
			t.Errorf("invalidParams(%s, %s) = %q, want %q", tt.method, tt.params, got, tt.wantErr)
		}
	}
}
