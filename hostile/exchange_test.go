package hostile

import (
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// exchange is one hostile line and the one answer it is owed (or none).
type exchange struct {
	name string
	line string // sent verbatim

	noAnswer bool     // no answer is due: the next answer must be the liveness ping's
	batchIDs []string // the answer is one array line of empty results for these ids
	wantIDs  []string // the answer's id, byte for byte (any of these)
	// wantCodes are the acceptable error codes; empty means a result is wanted.
	wantCodes []int
	anyAnswer bool // any one answer with one of wantIDs will do
	// check, if set, looks further at the answer.
	check func(t *testing.T, m *message)
}

// runExchanges sends each exchange's line to a session made by open (one
// for all, unless a case fails), checks the answer, and then that grove is
// alive.
func runExchanges(t *testing.T, open func(t *testing.T) *session, cases []exchange) {
	t.Helper()
	inSessions(t, open, cases, func(tt exchange) string { return tt.name }, func(t *testing.T, s *session, tt exchange) {
		s.send(tt.line)
		if !tt.noAnswer {
			m := s.nextResponse(time.Now().Add(callTimeout), "answer")
			tt.checkAnswer(t, m)
		}
		s.ping()
	})
}

func (tt exchange) checkAnswer(t *testing.T, m *message) {
	t.Helper()
	if tt.batchIDs != nil {
		checkBatchAnswer(t, m, tt.batchIDs)
		return
	}
	if m.Batch != nil {
		t.Fatalf("answered with a batch %.300s, want one answer", m.Raw)
	}
	if !slices.Contains(tt.wantIDs, string(m.ID)) {
		t.Errorf("answer id %s, want one of %v: %.300s", m.ID, tt.wantIDs, m.Raw)
	}
	switch {
	case tt.anyAnswer:
	case len(tt.wantCodes) == 0 && m.Error != nil:
		t.Errorf("answered error %d %q, want a result", m.Error.Code, m.Error.Message)
	case len(tt.wantCodes) > 0 && m.Error == nil:
		t.Errorf("answered a result %.300s, want error %v", m.Raw, tt.wantCodes)
	case len(tt.wantCodes) > 0 && !slices.Contains(tt.wantCodes, m.Error.Code):
		t.Errorf("answered error %d %q, want error %v", m.Error.Code, m.Error.Message, tt.wantCodes)
	}
	if tt.check != nil {
		tt.check(t, m)
	}
}

// pingLine is a ping request with the given raw id.
func pingLine(id string) string { return `{"jsonrpc":"2.0","id":` + id + `,"method":"ping"}` }

// request line builds a request line with a raw id and raw params.
func requestLine(id, method, params string) string {
	line := `{"jsonrpc":"2.0","id":` + id + `,"method":` + jsonString(method)
	if params != "" {
		line += `,"params":` + params
	}
	return line + `}`
}

// toolLine is a tools/call request line with raw arguments.
func toolLine(id int, tool, args string) string {
	return requestLine(strconv.Itoa(id), "tools/call", `{"name":`+jsonString(tool)+`,"arguments":`+args+`}`)
}

// nested is n opening brackets followed, if closed, by n closing ones.
func nested(n int, closed bool) string {
	s := strings.Repeat("[", n)
	if closed {
		s += strings.Repeat("]", n)
	}
	return s
}
