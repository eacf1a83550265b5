package hostile

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// overLimit is a line length past grove's 16 MiB line limit.
const overLimit = 20 << 20

// Issue 11 item 4 and contract P4: a line over the limit is answered
// -32600 "message too large" with the id found at its start, or id null when
// there is none before the payload; the session goes on.
func TestOverlongLines(t *testing.T) {
	if testing.Short() {
		t.Skip("20 MiB lines: skipped under -short")
	}
	t.Parallel()
	payload := strings.Repeat("x", overLimit)
	commit := func(id string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"git_commit","arguments":{"message":"` + payload + `"}}}`
	}
	tooLarge := func(t *testing.T, m *message) {
		t.Helper()
		if m.Error != nil && !strings.Contains(strings.ToLower(m.Error.Message), "too large") {
			t.Errorf("error message %q, want it to say the message is too large", m.Error.Message)
		}
	}
	cases := []exchange{
		{name: "id 42 first", line: commit("42"), wantIDs: []string{"42"}, wantCodes: []int{-32600}, check: tooLarge},
		{name: "string id first", line: commit(`"big-1"`), wantIDs: []string{`"big-1"`}, wantCodes: []int{-32600}, check: tooLarge},
		{name: "id 9007199254740993 first", line: commit("9007199254740993"), wantIDs: []string{"9007199254740993"}, wantCodes: []int{-32600}, check: tooLarge},
		{name: "id after the payload", line: `{"jsonrpc":"2.0","method":"tools/call","params":{"name":"git_commit","arguments":{"message":"` + payload + `"}},"id":43}`,
			wantIDs: []string{"null"}, wantCodes: []int{-32600}, check: tooLarge},
		{name: "not JSON", line: payload, wantIDs: []string{"null"}, wantCodes: []int{-32600}, check: tooLarge},
		{name: "batch", line: "[" + commit("44") + "]", wantIDs: []string{"null", "44"}, wantCodes: []int{-32600}, check: tooLarge},
	}
	runExchanges(t, legacyOn(fileRoot(t)), cases)

	t.Run("two in a row", func(t *testing.T) {
		t.Parallel()
		s := legacy(t, fileRoot(t))
		s.send(commit("45"))
		s.send(commit("46"))
		for _, id := range []string{"45", "46"} {
			m := s.await(id, callTimeout)
			if m.Error == nil || m.Error.Code != -32600 {
				t.Errorf("answered %.300s, want -32600", m.Raw)
			}
		}
		s.ping()
	})
	t.Run("just under the limit", func(t *testing.T) {
		t.Parallel()
		s := legacy(t, fileRoot(t))
		s.send(`{"jsonrpc":"2.0","id":47,"method":"tools/call","params":{"name":"git_commit","arguments":{"message":"` + strings.Repeat("y", 15<<20) + `"}}}`)
		m := s.await("47", callTimeout)
		if m.Error != nil {
			t.Errorf("a 15 MiB line answered %.300s, want a tool result", m.Raw)
		}
		s.ping()
	})
}

// Issue 11 item 5 and contract P5: a cancelled request is never answered.
// The request is made slow deterministically: the client declares roots and
// never answers grove's roots/list, so tool calls wait for the roots (up to
// five seconds). A second call, not cancelled, is the control: its answer
// comes when the wait ends, and the cancelled one's never does.
func TestCancelledRequestIsNotAnswered(t *testing.T) {
	t.Parallel()
	root := fileRoot(t)
	s := start(t, "--root", root)
	s.ignoreRootsList = true
	s.initialize(legacyVersion, `{"roots":{"listChanged":true}}`)
	s.awaitServerRequest("roots/list", callTimeout)

	cancelled := s.request("tools/call", map[string]any{"name": "read_file", "arguments": map[string]any{"path": "a.txt"}})
	control := s.request("tools/call", map[string]any{"name": "read_file", "arguments": map[string]any{"path": "a.txt"}})
	s.notify("notifications/cancelled", map[string]any{"requestId": json.RawMessage(cancelled), "reason": "hostile"})
	s.ping()
	for {
		m := s.nextResponse(time.Now().Add(callTimeout), "answer to the control call "+control)
		if string(m.ID) == cancelled {
			t.Fatalf("the cancelled request %s was answered: %.300s", cancelled, m.Raw)
		}
		if string(m.ID) == control {
			break
		}
		t.Errorf("stray answer: %.300s", m.Raw)
	}
	s.ping()

	// Cancelling again, or after the answer, is answered by nothing either.
	s.notify("notifications/cancelled", map[string]any{"requestId": json.RawMessage(cancelled)})
	s.notify("notifications/cancelled", map[string]any{"requestId": json.RawMessage(control)})
	s.ping()
}

// Same class as item 5: cancelled git tools (which take the repository's
// lock once the roots are known) are not answered either, and the
// repository stays usable: an uncancelled git_status sent with them is the
// control.
func TestCancelledGitCalls(t *testing.T) {
	t.Parallel()
	root := gitRoot(t)
	s := start(t, "--root", root)
	s.ignoreRootsList = true
	s.initialize(legacyVersion, `{"roots":{"listChanged":true}}`)
	s.awaitServerRequest("roots/list", callTimeout)
	cancelled := map[string]bool{}
	for _, tool := range []string{"git_status", "git_log", "git_diff", "git_add"} {
		args := map[string]any{}
		if tool == "git_add" {
			args["files"] = []string{"a.txt"}
		}
		cancelled[s.request("tools/call", map[string]any{"name": tool, "arguments": args})] = true
	}
	control := s.request("tools/call", map[string]any{"name": "git_status", "arguments": map[string]any{}})
	for id := range cancelled {
		s.notify("notifications/cancelled", map[string]any{"requestId": json.RawMessage(id)})
	}
	s.ping()
	for {
		m := s.nextResponse(time.Now().Add(callTimeout), "answer to the control call "+control)
		if string(m.ID) == control {
			if m.Error != nil || strings.Contains(string(m.Result), `"isError":true`) {
				t.Errorf("the control git_status: %.300s", m.Raw)
			}
			break
		}
		if cancelled[string(m.ID)] {
			t.Errorf("a cancelled request was answered: %.300s", m.Raw)
		} else {
			t.Errorf("stray answer: %.300s", m.Raw)
		}
	}
	s.ping()
}

// Issue 11 item 11 and contract P7: a request before
// notifications/initialized is answered from the operator's roots alone, and
// grove sends the client no request before notifications/initialized, not
// even when the client says its roots changed.
func TestRequestBeforeInitialized(t *testing.T) {
	t.Parallel()
	root := fileRoot(t)
	s := start(t, "--root", root)
	s.clientRoots = []string{fileURI(root)}
	s.initializeOnly(legacyVersion, `{"roots":{"listChanged":true}}`)

	r := s.callToolWithin("list_roots", map[string]any{}, pingTimeout)
	if r.msg.Error != nil || r.isError || !strings.Contains(r.text, root) {
		t.Errorf("list_roots before initialized: %.300s, want the operator's root %s", r.msg.Raw, root)
	}
	if m := s.call("resources/read", map[string]any{"uri": fileURI(root) + "/a.txt"}); m.Error != nil {
		t.Errorf("resources/read before initialized: %.300s", m.Raw)
	}
	s.notify("notifications/roots/list_changed", nil)
	s.callToolWithin("list_roots", map[string]any{}, pingTimeout)
	s.ping()
	for _, m := range s.serverRequests {
		t.Errorf("grove sent a request before notifications/initialized: %.300s", m.Raw)
	}

	s.notify("notifications/initialized", nil)
	s.awaitServerRequest("roots/list", callTimeout)
	s.ping()
}
