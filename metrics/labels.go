package metrics

import (
	"errors"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// An Outcome is how a request ended: the outcome label.
type Outcome string

// The outcomes. An error's outcome is the class of its JSON-RPC code.
const (
	OutcomeOK               Outcome = "ok"
	OutcomeInputRequired    Outcome = "input_required"     // a modern MRTR result asking the client for input (roots)
	OutcomeToolError        Outcome = "tool_error"         // a tool result with isError set
	OutcomeCancelled        Outcome = "cancelled"          // the client cancelled or went away first
	OutcomeInvalidRequest   Outcome = "invalid_request"    // -32600
	OutcomeMethodNotFound   Outcome = "method_not_found"   // -32601
	OutcomeInvalidParams    Outcome = "invalid_params"     // -32602 (modern resource not found too)
	OutcomeInternalError    Outcome = "internal_error"     // -32603
	OutcomeResourceNotFound Outcome = "resource_not_found" // -32002, legacy
	OutcomeProtocolError    Outcome = "protocol_error"     // -32020..-32099, the modern spec's codes (header mismatch, version, capability)
	OutcomeError            Outcome = "error"              // any other error
)

// ErrorOutcome classifies err, which is not nil, by its JSON-RPC code; an
// error without one is what the SDK sends as an internal error.
func ErrorOutcome(err error) Outcome {
	var rpc *jsonrpc.Error
	if !errors.As(err, &rpc) {
		return OutcomeError
	}
	switch code := rpc.Code; {
	case code == jsonrpc.CodeInvalidRequest:
		return OutcomeInvalidRequest
	case code == jsonrpc.CodeMethodNotFound:
		return OutcomeMethodNotFound
	case code == jsonrpc.CodeInvalidParams:
		return OutcomeInvalidParams
	case code == jsonrpc.CodeInternalError:
		return OutcomeInternalError
	case code == -32002:
		return OutcomeResourceNotFound
	case -32099 <= code && code <= -32020:
		return OutcomeProtocolError
	default:
		return OutcomeError
	}
}

// A DropReason says why a notification was dropped: the reason label.
type DropReason string

// The reasons.
const (
	DropSendFailed DropReason = "send_failed" // writing it to the session failed (gone, closed, broken stream)
	DropEvicted    DropReason = "evicted"     // a resumable stream's store was full and let it go before the client came back
	DropOther      DropReason = "other"
)

func (r DropReason) bounded() DropReason {
	switch r {
	case DropSendFailed, DropEvicted:
		return r
	}
	return DropOther
}

// Method returns the method label for a method a client sent: the
// client-to-server methods and notifications of both protocol eras, up to
// 2026-07-28, or "other". (A switch, not a map: nothing to build at start.)
func Method(method string) string {
	switch method {
	case "initialize", "ping", "server/discover",
		"tools/list", "tools/call",
		"resources/list", "resources/templates/list", "resources/read",
		"resources/subscribe", "resources/unsubscribe", "subscriptions/listen",
		"prompts/list", "prompts/get",
		"completion/complete", "logging/setLevel",
		"tasks/get", "tasks/list", "tasks/cancel", "tasks/result",
		"notifications/initialized", "notifications/cancelled",
		"notifications/progress", "notifications/roots/list_changed":
		return method
	}
	return "other"
}

// Notification returns the method label for a notification grove sends: the
// server-to-client notifications, or "other".
func Notification(method string) string {
	switch method {
	case "notifications/resources/updated",
		"notifications/resources/list_changed",
		"notifications/tools/list_changed",
		"notifications/prompts/list_changed",
		"notifications/message",
		"notifications/progress",
		"notifications/cancelled",
		"notifications/subscriptions/acknowledged",
		"notifications/elicitation/complete":
		return method
	}
	return "other"
}
