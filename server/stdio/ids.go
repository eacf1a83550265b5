package stdio

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MCP ids are strings or integers of any length. The SDK decodes a number id
// into a float64 (9007199254740993 comes back as ...992, 1.5 as 1) and takes
// "id": null for a notification. The stdio reader refuses null and
// non-integer ids, and hands the SDK a small id of its own for each request;
// the writer puts the client's bytes back. The SDK's ids are unique per
// connection, so a client that reuses an id in flight gets both answers.

// usableID returns raw when it is an id grove can answer with (a string or
// an integer), else nil.
func usableID(raw json.RawMessage) json.RawMessage {
	if isString(raw) || isInteger(raw) {
		return raw
	}
	return nil
}

func isString(raw []byte) bool { return len(raw) >= 2 && raw[0] == '"' }

// isInteger reports whether raw is a JSON number without fraction or
// exponent: -?(0|[1-9][0-9]*).
func isInteger(raw []byte) bool {
	digits := bytes.TrimPrefix(raw, []byte("-"))
	if len(digits) == 0 || digits[0] == '0' && len(digits) > 1 {
		return false
	}
	for _, b := range digits {
		if b < '0' || b > '9' {
			return false
		}
	}
	return true
}

// idKey is how an id is compared: a string by its value (however escaped),
// an integer by its digits.
func idKey(raw json.RawMessage) (string, bool) {
	switch {
	case isInteger(raw):
		return "n" + string(raw), true
	case isString(raw):
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return "", false
		}
		return "s" + s, true
	}
	return "", false
}

// syntheticID is the SDK's id for the n-th request. Below 2^53 a float64
// holds it exactly, as MakeID needs.
func syntheticID(n int64) jsonrpc.ID {
	id, _ := jsonrpc.MakeID(float64(n)) // a float64 always makes an id
	return id
}

// syntheticOf returns n when id is a synthetic id.
func syntheticOf(id jsonrpc.ID) (int64, bool) {
	n, ok := id.Raw().(int64)
	return n, ok
}

// withClientID returns the encoded response data, whose id is the synthetic
// n, with the client's id raw instead.
func withClientID(data []byte, n int64, raw json.RawMessage) []byte {
	prefix := `{"jsonrpc":"2.0","id":` + strconv.FormatInt(n, 10)
	if len(data) > len(prefix) && string(data[:len(prefix)]) == prefix && (data[len(prefix)] == ',' || data[len(prefix)] == '}') {
		out := make([]byte, 0, len(data)-len(prefix)+len(raw)+len(`{"jsonrpc":"2.0","id":`))
		out = append(out, `{"jsonrpc":"2.0","id":`...)
		out = append(out, raw...)
		return append(out, data[len(prefix):]...)
	}
	// Not the SDK's field order: set the field.
	return setField(data, nil, "id", raw)
}

// Progress tokens are strings or numbers. The SDK decodes a number token
// into a float64 too, and would send progress for 9007199254740993 as
// ...992: the reader swaps such a token for a string of its own, and the
// writer swaps it back.
const tokenPrefix = "\x00grove-progress:"

// quotedTokenPrefix is how a swapped token begins in encoded params.
var quotedTokenPrefix = []byte(`"\u0000grove-progress:`)

// keptByFloat reports whether a number token survives the SDK's float64
// unchanged.
func keptByFloat(raw []byte) bool {
	f, err := strconv.ParseFloat(string(raw), 64)
	if err != nil {
		return false
	}
	back, err := json.Marshal(f)
	return err == nil && bytes.Equal(back, raw)
}

// progressToken returns the number token in params' _meta that the SDK would
// change, or nil.
func progressToken(params json.RawMessage) json.RawMessage {
	if !bytes.Contains(params, []byte(`"progressToken"`)) {
		return nil
	}
	var p struct {
		Meta struct {
			Token json.RawMessage `json:"progressToken"`
		} `json:"_meta"`
	}
	if json.Unmarshal(params, &p) != nil {
		return nil
	}
	t := p.Meta.Token
	if len(t) == 0 || t[0] != '-' && (t[0] < '0' || t[0] > '9') || keptByFloat(t) {
		return nil // not a number (null is no token), or one the SDK keeps
	}
	return t
}

// setField returns the JSON object data with field set to value inside the
// object at path (each element a field name); data as it was when it does
// not hold such an object. Keys come out sorted.
func setField(data []byte, path []string, field string, value json.RawMessage) []byte {
	var obj map[string]json.RawMessage
	if json.Unmarshal(data, &obj) != nil || obj == nil {
		return data
	}
	if len(path) == 0 {
		obj[field] = value
	} else {
		inner, ok := obj[path[0]]
		if !ok {
			inner = json.RawMessage("{}")
		}
		obj[path[0]] = setField(inner, path[1:], field, value)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if enc.Encode(obj) != nil {
		return data
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// field returns the value at path in the JSON object data, or nil.
func field(data []byte, path ...string) json.RawMessage {
	for _, name := range path {
		var obj map[string]json.RawMessage
		if json.Unmarshal(data, &obj) != nil {
			return nil
		}
		data = obj[name]
	}
	return data
}

// subscriptionKey marks the _meta field where the SDK puts the id of a
// subscriptions/listen request (the synthetic one).
var subscriptionKey = []byte(`"` + mcp.MetaKeySubscriptionID + `"`)
