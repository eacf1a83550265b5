package stdio

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/grove-mcp/grove/server"
)

// The SDK checks few params: a request without the params its method needs
// gets -32600 (invalid request) before any handler runs, resources/read with
// {} reaches the handler with an empty URI (and answers "not found"), and
// logging/setLevel takes any level. JSON-RPC calls all of these invalid
// params (-32602). The stdio reader checks each request against its
// method's required params before the SDK sees it.

// paramRules holds, for each method grove serves that has required params
// (or params of a checked form), the check of its decoded params object. A
// method not listed takes whatever its handler takes.
var paramRules = map[string]struct {
	optional bool // params may be absent
	check    paramCheck
}{
	"initialize":               {check: all(nonEmpty("protocolVersion"), objectField("capabilities"), objectField("clientInfo"))},
	"tools/call":               {check: all(nonEmpty("name"), optional("arguments", objectField("arguments")))},
	"prompts/get":              {check: all(nonEmpty("name"), optional("arguments", objectField("arguments")))},
	"resources/read":           {check: nonEmpty("uri")},
	"resources/subscribe":      {check: nonEmpty("uri")},
	"resources/unsubscribe":    {check: nonEmpty("uri")},
	"completion/complete":      {check: all(objectField("ref", completionRef), objectField("argument", textField("name"), textField("value")))},
	"logging/setLevel":         {check: oneOf("level", logLevels...)},
	"subscriptions/listen":     {check: objectField("notifications")},
	"tools/list":               {optional: true, check: optional("cursor", textField("cursor"))},
	"prompts/list":             {optional: true, check: optional("cursor", textField("cursor"))},
	"resources/list":           {optional: true, check: optional("cursor", textField("cursor"))},
	"resources/templates/list": {optional: true, check: optional("cursor", textField("cursor"))},
}

// logLevels are the syslog severities of the protocol's LoggingLevel.
var logLevels = []string{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}

// removedInModern are the methods the 2026-07-28 protocol dropped: the SDK
// answers them "method not found" when a request carries the modern _meta,
// which comes before any check of their params.
var removedInModern = map[string]bool{
	"initialize": true, "ping": true, "logging/setLevel": true,
	"resources/subscribe": true, "resources/unsubscribe": true,
}

// invalidParams returns why params do not suit method, or "" when they do
// (or grove leaves the method's params to its handler).
func invalidParams(method string, params json.RawMessage) string {
	rule, ok := paramRules[method]
	if !ok {
		return ""
	}
	if len(params) == 0 || string(params) == "null" {
		if rule.optional {
			return ""
		}
		return fmt.Sprintf("%s needs params", method)
	}
	var p map[string]json.RawMessage
	if json.Unmarshal(params, &p) != nil {
		return "params must be an object"
	}
	if removedInModern[method] && modernMeta(p) {
		return ""
	}
	return rule.check(p)
}

// modernMeta reports whether params p carry the 2026-07-28 protocol version
// in their _meta, as the SDK decides it.
func modernMeta(p map[string]json.RawMessage) bool {
	var meta struct {
		Version string `json:"io.modelcontextprotocol/protocolVersion"`
	}
	return json.Unmarshal(p["_meta"], &meta) == nil && meta.Version >= server.ModernVersion
}

// A paramCheck returns why p is wrong, or "".
type paramCheck func(p map[string]json.RawMessage) string

func all(checks ...paramCheck) paramCheck {
	return func(p map[string]json.RawMessage) string {
		for _, c := range checks {
			if why := c(p); why != "" {
				return why
			}
		}
		return ""
	}
}

// optional applies check only when p has field, and not null: clients send
// null for "none" too.
func optional(field string, check paramCheck) paramCheck {
	return func(p map[string]json.RawMessage) string {
		if v, ok := p[field]; !ok || string(v) == "null" {
			return ""
		}
		return check(p)
	}
}

// textField requires field to be a string.
func textField(field string) paramCheck {
	return func(p map[string]json.RawMessage) string {
		var s string
		if raw, ok := p[field]; !ok || json.Unmarshal(raw, &s) != nil {
			return fmt.Sprintf("%q must be a string", field)
		}
		return ""
	}
}

// nonEmpty requires field to be a string other than "".
func nonEmpty(field string) paramCheck {
	return func(p map[string]json.RawMessage) string {
		var s string
		if raw, ok := p[field]; !ok || json.Unmarshal(raw, &s) != nil || s == "" {
			return fmt.Sprintf("%q must be a non-empty string", field)
		}
		return ""
	}
}

// oneOf requires field to be one of the strings values.
func oneOf(field string, values ...string) paramCheck {
	return func(p map[string]json.RawMessage) string {
		var s string
		if raw, ok := p[field]; !ok || json.Unmarshal(raw, &s) != nil || !slices.Contains(values, s) {
			return fmt.Sprintf("%q must be one of %q", field, values)
		}
		return ""
	}
}

// objectField requires field to be an object whose fields pass checks.
func objectField(field string, checks ...paramCheck) paramCheck {
	return func(p map[string]json.RawMessage) string {
		var inner map[string]json.RawMessage
		if raw, ok := p[field]; !ok || json.Unmarshal(raw, &inner) != nil || inner == nil {
			return fmt.Sprintf("%q must be an object", field)
		}
		if why := all(checks...)(inner); why != "" {
			return fmt.Sprintf("%q: %s", field, why)
		}
		return ""
	}
}

// completionRef checks a completion/complete reference: a prompt by name or
// a resource template by URI.
func completionRef(ref map[string]json.RawMessage) string {
	var typ string
	_ = json.Unmarshal(ref["type"], &typ)
	switch typ {
	case "ref/prompt":
		return textField("name")(ref)
	case "ref/resource":
		return textField("uri")(ref)
	}
	return `"type" must be "ref/prompt" or "ref/resource"`
}
