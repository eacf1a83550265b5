package server

import (
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The SDK drops an empty text ("text" is omitempty), so an empty file would
// go out with neither text nor blob, which the protocol's schema forbids and
// strict clients reject. emptyText restores "text": "" for text contents.
func emptyText(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if err != nil {
			return nil, err
		}
		if r, ok := res.(*mcp.ReadResourceResult); ok && r != nil && hasEmptyText(r) {
			return textResult{r}, nil
		}
		return res, nil
	}
}

func hasEmptyText(r *mcp.ReadResourceResult) bool {
	for _, c := range r.Contents {
		if c != nil && c.Text == "" && c.Blob == nil {
			return true
		}
	}
	return false
}

// textResult is a ReadResourceResult whose empty texts are sent as "".
type textResult struct{ *mcp.ReadResourceResult }

func (t textResult) MarshalJSON() ([]byte, error) {
	b, err := t.ReadResourceResult.MarshalJSON()
	if err != nil {
		return nil, err
	}
	var wire map[string]json.RawMessage
	if err := json.Unmarshal(b, &wire); err != nil {
		return nil, err
	}
	var contents []map[string]json.RawMessage
	if err := json.Unmarshal(wire["contents"], &contents); err != nil {
		return nil, err
	}
	for _, c := range contents {
		_, hasText := c["text"]
		_, hasBlob := c["blob"]
		if !hasText && !hasBlob {
			c["text"] = json.RawMessage(`""`)
		}
	}
	if wire["contents"], err = json.Marshal(contents); err != nil {
		return nil, err
	}
	return json.Marshal(wire)
}
