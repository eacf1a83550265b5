package stdio

import (
	"encoding/json"
	"strconv"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// The SDK cancels a request's context on notifications/cancelled but still
// writes the handler's answer ({"id":7,"result":{... "context canceled"}}).
// The protocol says the receiver should not answer a cancelled request: the
// reader marks the call cancelled before the SDK hears of it, and the writer
// drops its answer. A cancellation that arrives once the answer is written
// changes nothing.

// cancel marks the calls with the requestId of a notifications/cancelled
// cancelled, and returns the notifications that tell the SDK to stop them
// (one per call: a client may reuse an id). One for no call in flight
// (answered already, or never asked) is dropped: its id may be another
// call's synthetic one. initialize cannot be cancelled.
func (c *wireConn) cancel(params json.RawMessage) []jsonrpc.Message {
	var p struct {
		RequestID json.RawMessage `json:"requestId"`
	}
	if json.Unmarshal(params, &p) != nil {
		return nil
	}
	key, ok := idKey(p.RequestID)
	if !ok {
		return nil
	}
	var msgs []jsonrpc.Message
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, n := range c.byKey[key] {
		cl := c.calls[n]
		if cl.method == "initialize" || cl.cancelled {
			continue
		}
		cl.cancelled = true
		msgs = append(msgs, &jsonrpc.Request{Method: "notifications/cancelled",
			Params: json.RawMessage(`{"requestId":` + strconv.FormatInt(n, 10) + `}`)})
	}
	return msgs
}
